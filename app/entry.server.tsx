import crypto from "node:crypto";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { ready } from "~/lib/boot.server";
import { env } from "~/lib/env.server";
import { log, logError } from "~/lib/log.server";
import { renderPage } from "~/lib/page-render.server";
import { currentRequestId } from "~/lib/request-context.server";
import { applySecurityHeaders } from "~/lib/security-headers.server";
import { refreshedSessionCookie } from "~/lib/session.server";
import { NonceProvider } from "~/hooks/useNonce";
import { RequestReferenceProvider } from "~/hooks/useRequestReference";
import { adminPasswordProblem } from "~/lib/admin-password.server";
import { scheduleRefundSweep } from "~/models/refunds/sweep.server";
import { registerShopGauges } from "~/models/shop-gauges.server";

// The production server (server/index.ts) reaches these as build.entry.module: not ready at once
// on SIGTERM, then the shutdown hooks and the database's close once the in-flight requests are done
// (lifecycle.server); the data generation its page cache keys on; the header it writes each
// client's address into.
export { beginShutdown, isShuttingDown, shutdown } from "~/lib/lifecycle.server";
export { dataGeneration } from "~/lib/write-watch.server";
export { trustClientAddressHeader } from "~/lib/rate-limit.server";
// Each request's id and the context its log lines and mails read it from; the one log; the metrics
// (GET /metrics, server/metrics.ts) and what the server counts into them.
export { requestIdFor, runWithRequest } from "~/lib/request-context.server";
// A visitor who wrote a moment ago reads fresh on every server (fresh-reads.server).
export { freshReadsCookie, readsFreshFrom } from "~/lib/fresh-reads.server";
export { log, logError } from "~/lib/log.server";
export { countPageCache, metricsText, observeRequest } from "~/lib/metrics.server";
// The API's endpoint that answers a path, which the metrics count it under (web/endpoints.server).
export { apiEndpointId } from "~/web/api-endpoints.server";
// server/worker.ts (npm run worker): the mail outbox's worker and the housekeeping, alone.
export { runWorker } from "~/lib/housekeeping.server";

// Boot: the environment was checked on import; migrate and seed before serving anything.
await ready;
// Refunds nobody sent (a crash after the commit, no answer from the gateway) go out again (ADR 0024).
scheduleRefundSweep();
// The figures /metrics reads from the database when scraped (the outbox, refunds, stock held).
registerShopGauges();
const adminProblem = adminPasswordProblem();
if (adminProblem) log.warn(adminProblem);
if (env.NODE_ENV === "production" && !env.TRUST_PROXY) {
  log.info("Cookies are marked Secure on HTTPS requests; behind a TLS-terminating proxy set TRUST_PROXY=1.");
}

export const streamTimeout = 5_000;

/** A visit that touched the session (hourly) renews its cookie, so the browser keeps it as long as the server does. */
async function renewSessionCookie(request: Request, headers: Headers) {
  const cookie = await refreshedSessionCookie(request, headers);
  if (cookie) headers.append("Set-Cookie", cookie);
}

/**
 * A page asked for with cookies may carry the visitor's data (the cart, the account): no cache
 * keeps it. Any other page is private too and asked for again each time: its HTML carries a CSP
 * nonce of its own, which a shared cache would hand to everyone (ADR 0015).
 */
function keepPrivate(request: Request, headers: Headers) {
  if (request.headers.get("Cookie")) headers.set("Cache-Control", "private, no-store");
  else if (!headers.has("Cache-Control")) headers.set("Cache-Control", "private, no-cache");
}

export const handleDataRequest: HandleDataRequestFunction = async (response, { request }) => {
  applySecurityHeaders(response.headers);
  keepPrivate(request, response.headers);
  await renewSessionCookie(request, response.headers);
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // A client's mistake that Remix answers itself (a post to a page without a form: 405) is no
  // server error: no stack in the log, which anyone could otherwise fill with requests that cost nothing.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logError("request failed", error);
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  await renewSessionCookie(request, responseHeaders);
  keepPrivate(request, responseHeaders);
  const nonce = crypto.randomBytes(16).toString("base64");
  // A server error's page shows the request's id for the customer to quote (components/ErrorPage);
  // any other page carries none, so a cached page never hands one visitor's id to another.
  const reference = responseStatusCode >= 500 ? currentRequestId() : null;
  const page = (
    <NonceProvider value={nonce}>
      <RequestReferenceProvider value={reference}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </RequestReferenceProvider>
    </NonceProvider>
  );
  return renderPage(page, remixContext, { request, status: responseStatusCode, headers: responseHeaders, nonce, streamTimeout });
}
