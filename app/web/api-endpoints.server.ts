// The API's endpoints: every `api.*.ts` module of app/routes (web/endpoints.server, ADR 0016),
// loaded here, by the API's splat route's side: the one place that loads route modules, since
// Remix no longer does for these.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { AppError } from "~/lib/errors.server";
import { assertSameOrigin } from "~/lib/http.server";
import type { EndpointModule } from "~/web/endpoints.server";
import { endpointsOf, findEndpoint } from "~/web/endpoints.server";

const API = endpointsOf(
  import.meta.glob<Partial<EndpointModule>>(["../routes/api.*.ts", "!../routes/api.$.ts", "!../routes/*.test.ts"], { eager: true }),
);

/** The route id an API path is answered by ("routes/api.cart.add"), for the metrics; null for none. */
export function apiEndpointId(pathname: string): string | null {
  return findEndpoint(API, pathname)?.route.id ?? null;
}

/** Unknown API paths answer the JSON error of docs/api.md, not the HTML 404 page. */
const notFound = ({ request }: LoaderFunctionArgs | ActionFunctionArgs) =>
  apiHandler(async () => {
    assertSameOrigin(request);
    throw new AppError(404, "No such API path");
  });

/**
 * A request handed to its endpoint, with the endpoint's own parameters: to its loader for GET and
 * HEAD, as Remix would, to its action for any other method.
 */
export function answerApi(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const found = findEndpoint(API, new URL(args.request.url).pathname);
  if (!found) return notFound(args);
  const method = args.request.method;
  const handler = method === "GET" || method === "HEAD" ? found.route.module.loader : found.route.module.action;
  return handler({ ...args, params: found.params });
}
