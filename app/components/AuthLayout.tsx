import type { ReactNode } from "react";
import { AlertIcon } from "./icons";

/** The centred card the login, sign-up, code and password pages share. */
export function AuthLayout({
  title,
  intro,
  children,
  footer,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="bg-sand-50 px-4 py-10 sm:py-16">
      <div className="card mx-auto w-full max-w-md p-6 sm:p-8">
        <h1 className="text-center text-2xl font-semibold sm:text-3xl">{title}</h1>
        {intro ? <div className="mt-2 text-center text-sm text-stone-600">{intro}</div> : null}
        <div className="mt-6">{children}</div>
        {footer ? <div className="mt-6 border-t border-sand-200 pt-5 text-center text-sm text-stone-600">{footer}</div> : null}
      </div>
    </div>
  );
}

/** The form-level error banner (docs/product.md: sign-up "shows a form-level error banner"). */
export function FormBanner({ message, children }: { message?: string; children?: ReactNode }) {
  if (!message) return null;
  return (
    <div role="alert" className="mb-5 flex gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      <AlertIcon className="mt-0.5 h-5 w-5 shrink-0" />
      <div>
        <p>{message}</p>
        {children}
      </div>
    </div>
  );
}
