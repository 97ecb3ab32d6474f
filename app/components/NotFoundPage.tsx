import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { Link } from "./Link";
import type { ComponentType, ReactNode } from "react";
import { ErrorPage } from "./ErrorPage";

interface NotFoundProps {
  title: string;
  message?: string;
  to: string;
  linkText: string;
  icon?: ReactNode;
}

/** A page's own "not found": an icon, its heading, a sentence, and the way on. */
export function NotFoundPage({ title, message, to, linkText, icon }: NotFoundProps) {
  return (
    <section className="container-page flex flex-col items-center py-20 text-center">
      {icon}
      <h1 className={icon ? "mt-4 text-3xl font-semibold" : "text-3xl font-semibold"}>{title}</h1>
      {message ? <p className="mt-3 text-stone-600">{message}</p> : null}
      <Link to={to} className="btn-primary mt-8">
        {linkText}
      </Link>
    </section>
  );
}

/**
 * A route's error boundary: its loader's thrown 404 as this page (inside the shop layout), any
 * other error as `Otherwise` (by default the shared ErrorPage).
 */
export function notFoundBoundary(page: NotFoundProps, Otherwise: ComponentType = ErrorPage) {
  return function NotFoundBoundary() {
    const error = useRouteError();
    if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage {...page} />;
    return <Otherwise />;
  };
}
