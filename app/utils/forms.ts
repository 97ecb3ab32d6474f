// What a page action answers when a form is refused, shared by the server and the pages.

/** The banner over a form whose fields carry their own messages. */
export const CHECK_FIELDS = "Please check the highlighted fields.";

/** A refused form: the banner, a message per field, and what was typed (to fill it in again). */
export interface FormFailure {
  ok: false;
  formError: string;
  fieldErrors: Record<string, string>;
  values?: Record<string, string>;
}

/** Field constraints a form's inputs carry as native attributes (see fieldProps in FormField). */
export interface FieldRule {
  required?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  type?: "text" | "email" | "tel" | "password" | "number";
}
