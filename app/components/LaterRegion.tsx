// A region of a page below the fold, as a <Suspense> boundary of its own. React 18 hydrates a
// boundary the server rendered after the rest of the page, at a lower priority and in slices that
// yield to the browser, so the region's work is not part of the page's first hydration; a click or
// key press inside it before then makes React hydrate that region first (selective hydration).
// Until then it is the server's HTML: shown, its links and forms working as without JavaScript.
// On the server and in client navigations nothing in it suspends: it renders at once.
//
// A region whose code a visitor needs only once they do something (the footer, the product page's
// reviews and delivery check, the home page's newsletter form) is also loaded on demand (`demand`,
// made by `onDemand`): on a page the server rendered, the browser fetches that code at the
// visitor's first scroll, touch, pointer move or key press, and React hydrates the region then.
// A page nobody touches never downloads it. Until then the region is the server's HTML, as above.
// React commits no change of Remix's state (a navigation, a fetcher's post) while a boundary still
// waits for its code, so such a change also asks for it; and a region a client navigation mounts
// loads at once.
//
// The root marks <html data-hydrated> (what browser tests wait for) once every region loaded with
// the page has hydrated: each counts itself as it mounts and is counted out when its content has
// hydrated and run its effects. A region loaded on demand is not waited for; its element says
// `data-region="ready"` once it has hydrated.
import { useFetchers, useNavigation } from "@remix-run/react";
import type { ComponentType, FunctionComponent, ReactNode } from "react";
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";

const waiting = new Set<object>();
const onAllHydrated: (() => void)[] = [];
/** False until the root's first pass has committed: a region mounted before then came with the server's HTML. */
let firstPassDone = false;

function settle() {
  if (waiting.size === 0) for (const resolve of onAllHydrated.splice(0)) resolve();
}

/** Called by the root once its first pass has committed: settles once no region of the page waits to hydrate. */
export function regionsHydrated(): Promise<void> {
  firstPassDone = true;
  return waiting.size === 0 ? Promise.resolve() : new Promise((resolve) => onAllHydrated.push(resolve));
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

type Region = { hydrated: boolean };

function Hydrated({ region, onReady }: { region: Region; onReady?: () => void }) {
  useEffect(() => {
    region.hydrated = true;
    waiting.delete(region);
    onReady?.();
    settle();
  }, [region, onReady]);
  return null;
}

export function LaterRegion({ children, demand }: { children: ReactNode; demand?: { want: () => void } }) {
  const [region] = useState<Region>(() => ({ hydrated: false }));
  const [ready, setReady] = useState(false);
  const [mountedLater] = useState(() => firstPassDone);
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  if (demand && (mountedLater || busy)) demand.want();

  useEffect(() => {
    if (!demand && !region.hydrated) waiting.add(region);
    return () => {
      waiting.delete(region);
      // StrictMode (vite dev) unmounts and mounts every effect once more in the same task: a
      // region it mounts again is counted again before this runs.
      queueMicrotask(settle);
    };
  }, [region, demand]);

  const onReady = useCallback(() => setReady(true), []);
  const content = useMemo(
    () => (
      <Suspense fallback={null}>
        {children}
        <Hydrated region={region} onReady={demand ? onReady : undefined} />
      </Suspense>
    ),
    [children, region, demand, onReady],
  );
  if (!demand) return content;
  return <div data-region={ready ? "ready" : "waiting"}>{content}</div>;
}
