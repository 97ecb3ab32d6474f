// The one way a page action is written: pageAction reads the form (Origin check and size limit
// first), runs the handler (a form with one purpose) or the handler its `intent` field names (a
// page with several forms), and answers its redirect or data. A missing or unknown intent is
// refused the same way on every page (400 "Unknown action", UNKNOWN_INTENT). A refused form (an
// AppError) re-renders the page with the message, the field messages, what was typed, and the
// error's 4xx status. See docs/decisions/0009-structure-and-layers.md.
import { data } from "@remix-run/node";
import type { FormFailure } from "~/utils/forms";
import { CHECK_FIELDS } from "~/utils/forms";
import { AppError } from "./errors.server";
import { readForm } from "./http.server";
import { errorMessage, log } from "./log.server";

export type { FormFailure };

export interface PageActionOptions {
  /** the fields echoed back when the form is shown again (passwords never) */
  echo?: readonly string[];
  /** more to echo back than plain text fields */
  echoExtra?: (form: FormData) => Record<string, string>;
  /** the largest body accepted; forms with an upload need more */
  limit?: number;
  /** how the body is read; the default is readForm (Origin check, size limit, parsing) */
  read?: (request: Request, limit?: number) => Promise<FormData>;
  /**
   * With field messages the banner says CHECK_FIELDS rather than the first field's message
   * (forms whose messages stand beside their fields).
   */
  banner?: boolean;
  /**
   * The message for an unforeseen failure: logged, and the form re-renders with it and a 500.
   * Without it the error page shows.
   */
  unexpected?: string;
}

/** A refused form: its message, field messages and typed values, with the error's status. */
export function formFailure(error: AppError, values?: Record<string, string>) {
  const body: FormFailure = { ok: false, formError: error.message, fieldErrors: error.fieldErrors ?? {}, values };
  return data(body, { status: error.status, headers: error.headers });
}

/** The answer to a form whose `intent` names none of the page's actions (or that has none). */
export const UNKNOWN_ACTION = "Unknown action";
export const unknownIntent = () => new AppError(400, UNKNOWN_ACTION, { code: "UNKNOWN_INTENT" });

type FormHandler = (form: FormData) => Promise<unknown>;

/** A page with several forms: the handler of each `intent` value. */
export interface PageIntents<H extends Record<string, FormHandler> = Record<string, FormHandler>> {
  intents: H;
  /**
   * The intent a post without an `intent` field means. Only for a form whose documented body has
   * no intent (docs/api.md); a browser form names its intent, so every other page requires it.
   */
  absent?: keyof H & string;
}

/** What a handler (or any of a page's intent handlers) answers. */
type Answered<H> = H extends (form: FormData) => Promise<infer T>
  ? T
  : H extends PageIntents<infer I>
    ? { [K in keyof I]: Awaited<ReturnType<I[K]>> }[keyof I]
    : never;

/** The handler the form's `intent` picks; a missing or unknown one is refused with UNKNOWN_INTENT. */
function handlerOf(form: FormData, handle: FormHandler | PageIntents): FormHandler {
  if (typeof handle === "function") return handle;
  const intent = form.get("intent") ?? handle.absent ?? null;
  if (typeof intent === "string" && Object.hasOwn(handle.intents, intent)) return handle.intents[intent]!;
  throw unknownIntent();
}

/**
 * Run a page action: read the form, handle it, and turn a refusal into the re-rendered form.
 * `handle` is the form's handler, or `{ intents: { add: (form) => …, remove: … } }` for a page
 * whose forms say what they ask for in their `intent` field.
 */
export async function pageAction<H extends FormHandler | PageIntents>(request: Request, handle: H, options: PageActionOptions = {}) {
  let form: FormData | null = null;
  const values = () => (form ? { ...formValues(form, options.echo ?? []), ...options.echoExtra?.(form) } : undefined);
  try {
    form = await (options.read ?? readForm)(request, options.limit);
    return (await handlerOf(form, handle)(form)) as Answered<H>;
  } catch (error) {
    if (error instanceof AppError) {
      const withFields = options.banner && Object.keys(error.fieldErrors ?? {}).length > 0;
      return formFailure(withFields ? error.withMessage(CHECK_FIELDS) : error, values());
    }
    if (!options.unexpected || error instanceof Response) throw error;
    log.error(`page action failed: ${errorMessage(error)}`);
    const body: FormFailure = { ok: false, formError: options.unexpected, fieldErrors: {}, values: values() };
    return data(body, { status: 500 });
  }
}

/** Strings of a form, for re-rendering what the visitor typed (files and long values dropped). */
export function formValues(form: FormData, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const v = form.get(key);
    if (typeof v === "string") out[key] = v.slice(0, 5000);
  }
  return out;
}
