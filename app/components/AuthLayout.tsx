import type { ReactNode } from "react";

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
