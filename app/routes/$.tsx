// Catch-all: every unknown path is a 404 page inside the shop layout.
import { ErrorPage } from "~/components/ErrorPage";

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
