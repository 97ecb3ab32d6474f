// Catch-all: every unknown path is a 404 page inside the shop layout.
import { ErrorPage } from "~/components/ErrorPage";
import { notFoundPage } from "~/lib/errors.server";

export function loader() {
  throw notFoundPage("Not Found");
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
