// Five clicks on the home page's logo open the hidden Admin Access dialog (docs/product.md). The
// counting lives apart from the dialog, so every page carries only this and loads the dialog
// (components/AdminAccess) once it opens.
import { useCallback, useRef, useState } from "react";

export const ADMIN_CLICKS = 5;

/** Counts logo clicks; the fifth opens the dialog and the count starts again. */
export function useLogoClicks(enabled: boolean) {
  const [open, setOpen] = useState(false);
  const clicks = useRef(0);
  const onLogoClick = useCallback(() => {
    clicks.current += 1;
    if (clicks.current >= ADMIN_CLICKS) {
      clicks.current = 0;
      setOpen(true);
    }
  }, []);
  return { open, close: () => setOpen(false), onLogoClick: enabled ? onLogoClick : undefined };
}
