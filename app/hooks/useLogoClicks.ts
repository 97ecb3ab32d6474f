// Five clicks on the home page's logo open the hidden Admin Access dialog (docs/product.md). The
// counting lives apart from the dialog, so every page carries only this and loads the dialog
// (components/AdminAccess) once it opens.
import type { MouseEvent } from "react";
import { useCallback, useRef, useState } from "react";

export const ADMIN_CLICKS = 5;

/** Counts logo clicks; the fifth opens the dialog and the count starts again. */
export function useLogoClicks(enabled: boolean) {
  const [open, setOpen] = useState(false);
  const clicks = useRef(0);
  const onLogoClick = useCallback((event: MouseEvent<HTMLAnchorElement>) => {
    // Already home: nothing to load again, so the click only scrolls to the top. Five quick clicks
    // would otherwise start five navigations to the same page, each aborting the one before.
    if (window.location.pathname === "/" && window.location.search === "") {
      event.preventDefault();
      window.scrollTo({ top: 0 });
    }
    clicks.current += 1;
    if (clicks.current >= ADMIN_CLICKS) {
      clicks.current = 0;
      setOpen(true);
    }
  }, []);
  return { open, close: () => setOpen(false), onLogoClick: enabled ? onLogoClick : undefined };
}
