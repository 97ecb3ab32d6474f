// Page actions answer a redirect on success; on failure the page re-renders with the
// message (and field messages) and the error's 4xx status.
import { data } from "@remix-run/node";
import { AppError } from "./errors.server";

export interface FormFailure {
  ok: false;
  formError: string;
  fieldErrors: Record<string, string>;
  values?: Record<string, string>;
}

export function formFailure(error: AppError, values?: Record<string, string>) {
  const body: FormFailure = { ok: false, formError: error.message, fieldErrors: error.fieldErrors ?? {}, values };
  return data(body, { status: error.status, headers: error.headers });
}

/**
 * Run a page action: an AppError re-renders the form with its message. With `unexpected`, any
 * other failure is logged and the form re-renders with that text and a 500 (the spec's
 * 'An error occurred. Please try again.'); without it, the error page shows.
 */
export async function formAction<T>(fn: () => Promise<T>, values?: () => Record<string, string>, unexpected?: string) {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) return formFailure(error, values?.());
    if (!unexpected || error instanceof Response) throw error;
    return unexpectedFailure(error, unexpected, values?.());
  }
}

/** An unforeseen failure of a form post: logged, and answered with a plain message and a 500. */
export function unexpectedFailure(error: unknown, message: string, values?: Record<string, string>) {
  console.error(error instanceof Error ? error.message : error);
  const body: FormFailure = { ok: false, formError: message, fieldErrors: {}, values };
  return data(body, { status: 500 });
}

/** Strings of a form, for re-rendering what the visitor typed (files and long values dropped). */
export function formValues(form: FormData, keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const v = form.get(key);
    if (typeof v === "string") out[key] = v.slice(0, 5000);
  }
  return out;
}
