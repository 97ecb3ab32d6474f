// A region of a page below the fold, as a <Suspense> boundary of its own, hydrated at the visitor's
// first scroll, touch, pointer move or key press, not with the page: until then it is the server's
// HTML, shown, its links and forms working as without JavaScript. So a page's first hydration does
// only what is above the fold, and a page nobody touches never downloads the code of a region that
// has code of its own (`demand`, made by `onDemand`: the footer, the product page's reviews and
// delivery check, the home page's newsletter form). Every region opens at the same first interaction:
// React commits no change of Remix's state (a navigation, a fetcher's post, a route discovered)
// while a boundary is still waiting (Remix's contexts change, and React cannot tell whether the
// boundary reads them), so a region that waited for its own trigger held up the whole page. For
// the same reason a navigation or a fetcher's post opens them too, and a region a client navigation
// mounts opens at once. Each region's element says `data-region="ready"` once it has hydrated.
//
// One change of Remix's is not a transition: the location its browser entry keeps for its error
// boundary, set as a navigation completes. Rendered while a region still waits, it makes React give
// the region up (error 421): the server's HTML is thrown away and nothing shows until the code
// comes. So a navigation that starts while a region waits is held (`useNavigationsAfterRegions`)
// until every region has hydrated, which a visitor's click has already set off.
import { useBlocker, useFetchers, useNavigation } from "@remix-run/react";
import type { ComponentType, FunctionComponent, ReactNode } from "react";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";

/** False until the root's first pass has committed: a region mounted before then came with the server's HTML. */
let firstPassDone = false;

/** Called by the root once its first pass has committed (regions mounted later load at once). */
export function pageHydrated() {
  firstPassDone = true;
}

/** Every on-demand load not yet asked for; the visitor's first interaction asks for them all. */
const unasked = new Set<() => void>();
const FIRST_INTERACTION = ["scroll", "wheel", "pointermove", "pointerdown", "touchstart", "keydown", "focusin"] as const;
function askAll() {
  for (const type of FIRST_INTERACTION) window.removeEventListener(type, askAll, true);
  for (const want of [...unasked]) want();
}
if (typeof window !== "undefined") {
  for (const type of FIRST_INTERACTION) window.addEventListener(type, askAll, { capture: true, passive: true });
}

/** A component whose browser code loads only when asked for. */
export type OnDemand<P> = { Component: ComponentType<P>; want: () => void };

/**
 * `server`: the component itself, for the server's render (import it with a top-level await under
 * `import.meta.env.SSR`, so the browser's build leaves it out); `load`: the browser's dynamic import.
 */
export function onDemand<P extends object>(server: FunctionComponent<P> | null, load: () => Promise<FunctionComponent<P>>): OnDemand<P> {
  if (server) return { Component: server, want: () => undefined };
  let resolve = () => {};
  const wanted = new Promise<void>((settled) => (resolve = settled));
  const want = () => {
    unasked.delete(want);
    resolve();
  };
  unasked.add(want);
  // lazy() types its result for class components too (with a ref); these are function components.
  const Component = lazy(() => wanted.then(load).then((loaded) => ({ default: loaded }))) as unknown as FunctionComponent<P>;
  return { Component, want };
}

/** Its children as they are: what a region below the fold holds when its code is already in the page. */
function Passthrough({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
/** The gate of every region without code of its own: opened, like the others, at the first interaction. */
const Later = onDemand<{ children: ReactNode }>(import.meta.env.SSR ? Passthrough : null, () => Promise.resolve(Passthrough));

function Hydrated({ onReady }: { onReady: () => void }) {
  useEffect(onReady, [onReady]);
  return null;
}

export function LaterRegion({ children, demand }: { children: ReactNode; demand?: { want: () => void } }) {
  const gate = demand ?? Later;
  const [ready, setReady] = useState(false);
  const [mountedLater] = useState(() => firstPassDone);
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  if (mountedLater || busy) gate.want();
  const onReady = useCallback(() => setReady(true), []);
  return (
    <div data-region={ready ? "ready" : "waiting"}>
      <Suspense fallback={null}>
        {demand ? children : <Later.Component>{children}</Later.Component>}
        <Hydrated onReady={onReady} />
      </Suspense>
    </div>
  );
}

/** True while a region on the page has not hydrated (its code not yet come, or not yet asked for). */
function regionWaiting() {
  return document.querySelector('[data-region="waiting"]') !== null;
}

/**
 * Holds a navigation that starts while a region still waits, asking for every region's code, and
 * lets it go once they have hydrated. The router's state change that says "held" is a transition,
 * and React commits it only after the waiting regions have hydrated; so it goes on from there.
 */
export function useNavigationsAfterRegions() {
  const hold = useCallback(() => {
    if (!regionWaiting()) return false;
    askAll();
    return true;
  }, []);
  const blocker = useBlocker(hold);
  useEffect(() => {
    if (blocker.state === "blocked") blocker.proceed();
  }, [blocker]);
}
