// Free of zod, so the browser may import it; the server checks a toast cookie with ToastSchema (lib/toast.server.ts).
export const TOAST_TYPES = ["default", "success", "warning", "error", "info"] as const;
export type ToastType = (typeof TOAST_TYPES)[number];

export interface Toast {
  id: string;
  type: ToastType;
  title: string;
  description?: string;
}
export type ToastInput = { type?: ToastType; title: string; description?: string };

export const TOAST_LIMIT = 3;
export const TOAST_DURATION_MS = 5000;
