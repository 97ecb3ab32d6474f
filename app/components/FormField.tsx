import type { FieldRule } from "~/utils/forms";
import type { ReactNode } from "react";

/** aria props that tie a control to its error text. */
export function fieldA11y(id: string, error: string | undefined) {
  return error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

/** A label, its control and the control's error text, laid out the same on every form. */
export function FormField({
  id,
  label,
  required,
  optional,
  error,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  optional?: boolean;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div>
      {/* The asterisk and '(optional)' are drawn by CSS with empty alternative text, so the
          label's text and accessible name are exactly the field's name. */}
      <label
        htmlFor={id}
        className={`field-label ${required ? "label-required" : optional ? "label-optional" : ""}`}
      >
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A field rule as the input's native attributes, so the browser helps even without JavaScript. */
export function fieldProps(rule: FieldRule) {
  return {
    required: rule.required || undefined,
    maxLength: rule.maxLength,
    minLength: rule.minLength,
    pattern: rule.pattern,
    type: rule.type,
  };
}
