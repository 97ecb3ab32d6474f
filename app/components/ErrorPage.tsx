import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";

/** The one error boundary body: friendly words, never a stack trace. */
export function ErrorPage() {
  const error = useRouteError();
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
      <Link to="/" className="btn-primary mt-8">
        Back to Home
      </Link>
    </section>
  );
}
