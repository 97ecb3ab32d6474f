import type { FormEvent } from "react";
import { useEffect, useState } from "react";

export interface FormResult {
  formError?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

/**
 * The server's messages for a form, cleared as the customer edits (docs/product.md: "errors clear when
 * a field is edited"): a field's message goes when that field changes, the banner at the
 * first edit. Without JavaScript they simply stay until the next submit.
 */
export function useFormErrors(result: FormResult | undefined) {
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setEdited(new Set()), [result]);
  const fieldErrors = result?.fieldErrors ?? {};
  return {
    formError: edited.size === 0 ? result?.formError : undefined,
    error: (name: string): string | undefined => (edited.has(name) ? undefined : fieldErrors[name]),
    value: (name: string): string | undefined => result?.values?.[name],
    onChange: (event: FormEvent<HTMLFormElement>) => {
      const name = (event.target as HTMLInputElement).name;
      if (name) setEdited((prev) => (prev.has(name) ? prev : new Set(prev).add(name)));
    },
  };
}
