// A region of a page below the fold, as a <Suspense> boundary of its own. React 18 hydrates a
// boundary the server rendered after the rest of the page, at a lower priority and in slices that
// yield to the browser, so the region's work is not part of the page's first hydration; a click or
// key press inside it before then makes React hydrate that region first (selective hydration).
// Until then it is the server's HTML: shown, its links and forms working as without JavaScript.
// On the server and in client navigations nothing in it suspends: it renders at once.
//
// A region whose code few visitors need (the product page's reviews, the delivery check) is also
// loaded on demand (`demand`, made by `onDemand`): on a page the server rendered, the browser
// fetches its code only once the region comes into view or the shopper points at or focuses
// something in it ("used": only then), and React hydrates it then. Until then it is the server's
// HTML, as above. A region a client navigation shows loads its code at once.
//
// The root marks <html data-hydrated> (what browser tests wait for) once every region has hydrated:
// each region counts itself as it mounts (with the page's first pass) and is counted out when its
// content has hydrated and run its effects. A region loaded on demand counts only from the moment
// its load starts; its element says `data-region="ready"` once it has hydrated.
import { useFetchers, useNavigation } from "@remix-run/react";
import type { ComponentType, FunctionComponent, ReactNode } from "react";
import { isValidElement, lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";

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

/** A component whose browser code loads only when its region asks for it. */
export type OnDemand<P> = { Component: ComponentType<P>; want: () => void };

/**
 * `server`: the component itself, for the server's render (import it with a top-level await under
 * `import.meta.env.SSR`, so the browser's build leaves it out); `load`: the browser's dynamic import.
 */
export function onDemand<P extends object>(server: FunctionComponent<P> | null, load: () => Promise<FunctionComponent<P>>): OnDemand<P> {
  if (server) return { Component: server, want: () => undefined };
  let want = () => {};
  const wanted = new Promise<void>((resolve) => (want = resolve));
  // lazy() types its result for class components too (with a ref); these are function components.
  const Component = lazy(() => wanted.then(load).then((loaded) => ({ default: loaded }))) as unknown as FunctionComponent<P>;
  return { Component, want: () => want() };
}

type Region = { hydrated: boolean; counted: boolean };

function Hydrated({ region, onReady }: { region: Region; onReady?: () => void }) {
  useEffect(() => {
    region.hydrated = true;
    waiting.delete(region);
    onReady?.();
    settle();
  }, [region, onReady]);
  return null;
}

function count(region: Region) {
  if (region.hydrated || region.counted) return;
  region.counted = true;
  waiting.add(region);
}

/**
 * The element rendered last time when the new one is of the same component with the same props
 * (plain data, compared as JSON), and whether it changed. A boundary still waiting to hydrate that
 * is handed a new element must hydrate before React can commit the update, so an update of the
 * page (the root's data after a post) would otherwise wait for a region's code that nobody asked for.
 */
function useSameElement(children: ReactNode): { node: ReactNode; changed: boolean } {
  const last = useRef<{ node: ReactNode; type: unknown; key: string | null } | null>(null);
  const type = isValidElement(children) ? children.type : null;
  const key = isValidElement(children) ? JSON.stringify(children.props) : null;
  if (last.current && key !== null && last.current.type === type && last.current.key === key)
    return { node: last.current.node, changed: false };
  const changed = last.current !== null;
  last.current = { node: children, type, key };
  return { node: children, changed };
}

export function LaterRegion({
  children,
  demand,
  when = "seen",
}: {
  children: ReactNode;
  demand?: { want: () => void };
  /** For a region loaded on demand: "seen" (in view), or only once "used". */
  when?: "seen" | "used";
}) {
  const [region] = useState<Region>(() => ({ hydrated: false, counted: false }));
  const [ready, setReady] = useState(false);
  const element = useRef<HTMLDivElement>(null);
  const { node, changed } = useSameElement(children);
  // Mounted by a client navigation (the page's first pass was done by then), or given new data
  // before its code came: its code loads at once (an update of the page waits for it).
  const [mountedLater] = useState(() => firstPassDone);
  // React cannot commit any change of Remix's state (a navigation, a fetcher's post, a
  // revalidation) while a boundary is still waiting for code: Remix's contexts change, and React
  // cannot tell whether anything inside the waiting boundary reads them. Such an update asks for
  // the region's code, which then loads beside the request.
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  if (demand && (mountedLater || changed || busy)) demand.want();

  useEffect(() => {
    if (!demand) count(region);
    return () => {
      waiting.delete(region);
      region.counted = false;
      // StrictMode (vite dev) unmounts and mounts every effect once more in the same task: a
      // region it mounts again is counted again before this runs.
      queueMicrotask(settle);
    };
  }, [region, demand]);

  useEffect(() => {
    const node = element.current;
    if (!demand || !node || region.hydrated) return;
    const start = () => {
      count(region);
      demand.want();
      stop();
    };
    const events = ["pointerover", "focusin", "touchstart"] as const;
    for (const type of events) node.addEventListener(type, start, { passive: true });
    const seen =
      when === "seen" && "IntersectionObserver" in window
        ? new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && start())
        : null;
    seen?.observe(node);
    function stop() {
      for (const type of events) node!.removeEventListener(type, start);
      seen?.disconnect();
    }
    return stop;
  }, [region, demand, when]);

  const onReady = useCallback(() => setReady(true), []);
  // The same element while the data is the same: React leaves a waiting boundary alone.
  const content = useMemo(
    () => (
      <Suspense fallback={null}>
        {node}
        <Hydrated region={region} onReady={demand ? onReady : undefined} />
      </Suspense>
    ),
    [node, region, demand, onReady],
  );
  if (!demand) return content;
  return (
    <div ref={element} data-region={ready ? "ready" : "waiting"}>
      {content}
    </div>
  );
}
