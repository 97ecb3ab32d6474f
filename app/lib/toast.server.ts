// Flash toasts in a small signed cookie, read (and cleared) by the root loader,
// so a form post without JavaScript still shows its message after the redirect.
import crypto from "node:crypto";
import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { z } from "zod";
import { isSecureRequest } from "./http.server";
import { sessionSignedCookie } from "./secrets.server";
import { TOAST_TYPES } from "~/utils/toast";
import type { Toast, ToastInput } from "~/utils/toast";

const ToastSchema = z.object({
  id: z.string(),
  type: z.enum(TOAST_TYPES),
  title: z.string(),
  description: z.string().optional(),
}) satisfies z.ZodType<Toast>;

const toastStorage = createCookieSessionStorage({
  cookie: sessionSignedCookie("__toast", {
    httpOnly: true,
    sameSite: "lax",
    secure: false, // decided per response, like the session cookie
    path: "/",
  }),
});

const FLASH_KEY = "toasts";

export async function toastHeader(request: Request, input: ToastInput): Promise<string> {
  const session = await toastStorage.getSession(request.headers.get("Cookie"));
  const pending = z
    .array(ToastSchema)
    .catch([])
    .parse(session.get(FLASH_KEY) ?? []);
  const toast: Toast = { id: crypto.randomUUID(), type: input.type ?? "default", title: input.title, description: input.description };
  session.flash(FLASH_KEY, [...pending, toast].slice(-3));
  return toastStorage.commitSession(session, { secure: isSecureRequest(request) });
}

export async function redirectWithToast(request: Request, url: string, toast: ToastInput, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(request, toast));
  return redirect(url, { ...init, headers });
}

/** Read and clear pending toasts. Returns the toasts and the Set-Cookie that clears them. */
export async function readToasts(request: Request): Promise<{ toasts: Toast[]; headers: Headers | null }> {
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes("__toast=")) return { toasts: [], headers: null };
  const session = await toastStorage.getSession(cookie);
  const toasts = z
    .array(ToastSchema)
    .catch([])
    .parse(session.get(FLASH_KEY) ?? []);
  const headers = new Headers({ "Set-Cookie": await toastStorage.destroySession(session, { secure: isSecureRequest(request) }) });
  return { toasts, headers };
}
