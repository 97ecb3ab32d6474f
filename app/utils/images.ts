/** `fetchpriority="high"` for a page's largest image (React 18 knows only the lowercase attribute). */
export const HIGH_PRIORITY = { fetchpriority: "high" } as Record<string, string>;
