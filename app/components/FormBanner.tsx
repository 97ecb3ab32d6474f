import type { ReactNode } from "react";
import { AlertIcon } from "./icons";

/**
 * The form-level error banner over every form (docs/product.md: sign-up "shows a form-level
 * error banner"): the message a refused form answered, with optional detail below it.
 */
export function FormBanner({
  message,
  children,
  className = "mb-5",
}: {
  message?: string | null;
  children?: ReactNode;
  /** its margin where it stands (below the form's heading by default) */
  className?: string;
}) {
  if (!message) return null;
  return (
    <div role="alert" className={`${className} flex gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800`}>
      <AlertIcon className="mt-0.5 h-5 w-5 shrink-0" />
      <div>
        <p>{message}</p>
        {children}
      </div>
    </div>
  );
}
