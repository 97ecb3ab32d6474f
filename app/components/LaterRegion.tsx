// A region of a page below the fold, as a <Suspense> boundary of its own. React 18 hydrates a
// boundary the server rendered after the rest of the page, at a lower priority and in slices that
// yield to the browser, so the region's work is not part of the page's first hydration; a click or
// key press inside it before then makes React hydrate that region first (selective hydration).
// Until then it is the server's HTML: shown, its links and forms working as without JavaScript.
// On the server and in client navigations nothing in it suspends: it renders at once.
//
// The root marks <html data-hydrated> (what browser tests wait for) once every region has hydrated:
// each region counts itself as it mounts (with the page's first pass) and is counted out when its
// content has hydrated and run its effects.
import type { ReactNode } from "react";
import { Suspense, useEffect, useState } from "react";

const waiting = new Set<object>();
const onAllHydrated: (() => void)[] = [];

function settle() {
  if (waiting.size === 0) for (const resolve of onAllHydrated.splice(0)) resolve();
}

/** Settles once no region of the page waits to hydrate (at once when none does). */
export function regionsHydrated(): Promise<void> {
  return waiting.size === 0 ? Promise.resolve() : new Promise((resolve) => onAllHydrated.push(resolve));
}

function Hydrated({ region }: { region: { hydrated: boolean } }) {
  useEffect(() => {
    region.hydrated = true;
    waiting.delete(region);
    settle();
  }, [region]);
  return null;
}

export function LaterRegion({ children }: { children: ReactNode }) {
  const [region] = useState(() => ({ hydrated: false }));
  useEffect(() => {
    if (!region.hydrated) waiting.add(region);
    return () => {
      waiting.delete(region);
      // StrictMode (vite dev) unmounts and mounts every effect once more in the same task: a
      // region it mounts again is counted again before this runs.
      queueMicrotask(settle);
    };
  }, [region]);
  return (
    <Suspense fallback={null}>
      {children}
      <Hydrated region={region} />
    </Suspense>
  );
}
