// Hydrating a page in parts (ADR 0028). The browser build runs on Preact (the same ADR), which
// hydrates a whole tree in one synchronous task; a phone's CPU spends about
// 150 ms in it on the product page, all of it Total Blocking Time beyond the first 50 ms. A region
// wrapped in <HydrateLater> is skipped by that first pass and hydrated in a task of its own
// afterwards, one region per task in the order the page draws them, so no task is long.
//
// Until its turn the region is the server's HTML, untouched: it is shown, its links and forms work
// as they do without JavaScript, only its scripted behaviour waits a few milliseconds. How: during
// the first pass the region's gate throws a promise (suspends); Preact, hydrating, keeps the DOM of
// a suspended component and picks its hydration up where it left off when the nearest <Suspense>
// re-renders once the promise settles. The gate suspends only inside that first, synchronous pass
// (`hydrationPass`, set by app/browser/react-dom-client.ts), never on the server, in React (vite dev,
// which hydrates in a transition and yields on its own) or in anything drawn after load.
//
// The region's child must be one element (Preact resumes a suspended component on one DOM node).
import { Suspense, type ReactElement } from "react";

/** True only while the browser build's first hydration runs (app/browser/react-dom-client.ts). */
export const hydrationPass = { running: false };

/** A task of its own, queued behind whatever the browser has waiting (input, paint), without setTimeout's 4 ms clamp on a chain. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The turns of the regions the first pass skipped, one after another. */
let queue: Promise<void> = Promise.resolve();

/**
 * Settles once every region the first pass skipped has hydrated and run its effects (which
 * Preact runs after the next frame): the root marks the page hydrated then, and browser tests
 * wait for that mark.
 */
export function allRegionsHydrated(): Promise<void> {
  return queue.then(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

function Gate({ children }: { children: ReactElement }) {
  // A gate is drawn once in the first pass (where it takes the next turn) and again when its turn
  // has come, outside the pass.
  if (hydrationPass.running) throw (queue = queue.then(nextTask));
  return children;
}

/** Hydrate `children` (one element) in a task of its own after the page's first pass. */
export function HydrateLater({ children }: { children: ReactElement }) {
  return (
    <Suspense fallback={null}>
      <Gate>{children}</Gate>
    </Suspense>
  );
}
