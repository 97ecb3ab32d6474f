import { isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { Link } from "./Link";
import { REFERENCE_ID, useRequestReference } from "~/hooks/useRequestReference";

/** The one error boundary body: friendly words, never a stack trace; on a server error, the request's reference. */
export function ErrorPage() {
  const error = useRouteError();
  const reference = useRequestReference();
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    status === 404
      ? "We couldn't find the page you're looking for."
      : isRouteErrorResponse(error) && typeof error.data === "string" && error.data
        ? error.data
        : "Something went wrong on our side. Please try again in a moment.";
  return (
    <section className="container-page flex min-h-[50vh] flex-col items-center justify-center py-16 text-center">
      <p className="text-sm font-semibold tracking-wide text-wood-600 uppercase">Error {status}</p>
      <h1 className="mt-2 text-3xl font-semibold">{status === 404 ? "Page Not Found" : "Something went wrong"}</h1>
      <p className="mt-3 max-w-md text-stone-600">{message}</p>
      {status >= 500 && reference ? (
        <p className="mt-4 max-w-md text-sm text-stone-600">
          If you contact us about this, please quote this reference:{" "}
          <code id={REFERENCE_ID} className="font-mono break-all text-stone-800">
            {reference}
          </code>
        </p>
      ) : status >= 500 ? (
        <p className="mt-4 max-w-md text-sm text-stone-600">
          If it happens again, the page will show a reference to quote when you contact us.
        </p>
      ) : null}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {status >= 500 ? (
          // A whole page from the server, not a navigation inside this one: the server's own error
          // page, should the error come back, carries the reference.
          <Link to={location.pathname + location.search} reloadDocument className="btn-secondary">
            Try again
          </Link>
        ) : null}
        <Link to="/" className="btn-primary">
          Back to Home
        </Link>
      </div>
    </section>
  );
}
