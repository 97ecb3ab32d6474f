import { z } from "zod";

export const TOAST_TYPES = ["default", "success", "warning", "error", "info"] as const;
export type ToastType = (typeof TOAST_TYPES)[number];

export const ToastSchema = z.object({
  id: z.string(),
  type: z.enum(TOAST_TYPES),
  title: z.string(),
  description: z.string().optional(),
});
export type Toast = z.infer<typeof ToastSchema>;
export type ToastInput = { type?: ToastType; title: string; description?: string };

export const TOAST_LIMIT = 3;
export const TOAST_DURATION_MS = 5000;
