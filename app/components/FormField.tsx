import type { FieldRule } from "~/utils/forms";
import type { InputHTMLAttributes, ReactNode } from "react";

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
      <label htmlFor={id} className={`field-label ${required ? "label-required" : optional ? "label-optional" : ""}`}>
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

/** The attributes fieldProps gives an input (only those its rule sets). */
export interface FieldAttributes {
  required?: true;
  "aria-required"?: true;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  type?: FieldRule["type"];
}

/**
 * A field rule as the input's native attributes, so the browser helps even without JavaScript.
 * `requiredBy: "server"`: a required field only says so (aria-required) and the server checks
 * it, for forms whose messages for a missing field come from the server in a set order (the
 * account forms).
 */
export function fieldProps(rule: FieldRule, requiredBy: "browser" | "server" = "browser"): FieldAttributes {
  const props: FieldAttributes = {};
  if (rule.required) props[requiredBy === "browser" ? "required" : "aria-required"] = true;
  if (rule.maxLength !== undefined) props.maxLength = rule.maxLength;
  if (rule.minLength !== undefined) props.minLength = rule.minLength;
  if (rule.pattern !== undefined) props.pattern = rule.pattern;
  if (rule.type !== undefined) props.type = rule.type;
  return props;
}

/**
 * A FormField around one input whose constraints come from its field rule: the rule's
 * attributes, the shared input style, and the error's aria props. The label is marked from the
 * rule (an asterisk when required, '(optional)' otherwise) unless `mark` is false. `children`
 * follow the input (a hint).
 */
export function RuleField({
  id,
  label,
  rule,
  requiredBy,
  mark = true,
  error,
  children,
  ...input
}: {
  id: string;
  label: string;
  rule: FieldRule;
  requiredBy?: "browser" | "server";
  mark?: boolean;
  error?: string;
  children?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "required" | "maxLength" | "minLength" | "pattern" | "type" | "children">) {
  return (
    <FormField id={id} label={label} required={mark && rule.required} optional={mark && !rule.required} error={error}>
      <input id={id} {...fieldProps(rule, requiredBy)} className="field-input" {...input} {...fieldA11y(id, error)} />
      {children}
    </FormField>
  );
}
