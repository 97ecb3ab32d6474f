import { useEffect, useState } from "react";

/** False during the server render and the first client render; true once JavaScript runs. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** `fetchpriority="high"` for a page's largest image (React 18 knows only the lowercase attribute). */
export const HIGH_PRIORITY = { fetchpriority: "high" } as Record<string, string>;
