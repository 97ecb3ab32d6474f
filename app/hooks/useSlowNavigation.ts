// A slow client navigation to a list page shows that page's loading text and skeleton
// (docs/product.md, Screens; components/PendingPage, which the root loads only when one starts).
import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";

/** The page a slow client navigation is heading to, once it has taken longer than `delayMs`. */
export function useSlowNavigationTarget(delayMs = 300): string | null {
  const navigation = useNavigation();
  const location = useLocation();
  // A link, or a GET form that goes to another page (the header's search): not a posted form.
  const plain = !navigation.formData || navigation.formMethod?.toUpperCase() === "GET";
  const target =
    navigation.state === "loading" && plain && navigation.location.pathname !== location.pathname ? navigation.location.pathname : null;
  const [slow, setSlow] = useState<string | null>(null);
  useEffect(() => {
    setSlow(null);
    if (!target) return;
    const timer = setTimeout(() => setSlow(target), delayMs);
    return () => clearTimeout(timer);
  }, [target, delayMs]);
  // Only while that navigation still runs: the render that lands on the new page must show the
  // page itself, not one last frame of its skeleton (which upset the scroll to the top).
  return slow !== null && slow === target ? slow : null;
}

/** The pages with a pending screen of their own (components/PendingPage). */
export function hasPendingPage(path: string) {
  return path === "/" || path === "/categories" || path === "/search" || path.startsWith("/category/");
}
