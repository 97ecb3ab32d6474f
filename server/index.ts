// The production server: Express with the Remix request handler, as remix-serve does (compression,
// hashed assets cached for a year, a request log, here without query values: server/access-log.ts),
// plus what remix-serve cannot do:
// - tell the app the client's address, so rate limits hold per address. The address is the
//   socket's peer, or behind a trusted proxy what it reports (Express "trust proxy": the right-most
//   X-Forwarded-For entry it added, not the client's own claim). TRUST_PROXY=1 trusts whatever
//   connects; a list of addresses or ranges trusts only those (app/lib/proxy-trust.ts);
// - the door (server/request-gate.ts) and the anonymous page cache (server/page-cache.ts);
// - a graceful stop (server/shutdown.ts);
// - an id for every request (X-Request-Id, carried through its log lines and mails), and the
//   metrics: every answer counted by route, GET /metrics for Prometheus (server/metrics.ts).
// Startup: the build's import migrates and loads the secrets; a reason not to start (a bad variable, a
// secret the other servers do not share, migrations newer than this code) is printed alone, exit 1.
// Compiled into build/server.js by scripts/build-server.mjs (docs/decisions/0021-typed-server.md).
import path from "node:path";
import { createRequestHandler, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import type { Request as ExpressRequest } from "express";
import { metricsAllowList } from "../app/lib/metrics-access";
import { proxyTrustSetting } from "../app/lib/proxy-trust";
import { accessLog } from "./access-log";
import { buildDir, importBuild } from "./import-build";
import { metricsEndpoint, requestMetrics } from "./metrics";
import { createPageCache, isCacheable } from "./page-cache";
import { remixRequest, sendResponse } from "./remix-adapter";
import { requestErrors, requestGate } from "./request-gate";
import { routeLabeller } from "./route-label";
import { gracefulStop } from "./shutdown";

/** The header this server writes each request's client address into, overwriting whatever a client sent under that name. */
const CLIENT_ADDRESS_HEADER = "x-shop-client-address";

// Production unless told otherwise, as remix-serve (run directly, this is still the production server).
process.env.NODE_ENV ??= "production";

const build = await importBuild("shop");
const entry = build.entry.module;
entry.trustClientAddressHeader(CLIENT_ADDRESS_HEADER);
installGlobals({ nativeFetch: build.future.v3_singleFetch });

/** A number of milliseconds as app/lib/env.server.ts reads it (and has checked it at boot): unset or blank is the default. */
const millis = (value: string | undefined, fallback: number) => (value?.trim() ? Number(value) : fallback);
const stopper = gracefulStop({
  lifecycle: entry,
  delayMs: millis(process.env.SHUTDOWN_DELAY_MS, 0),
  timeoutMs: millis(process.env.SHUTDOWN_TIMEOUT_MS, 10_000),
  log: entry.log,
});

const app = express();
app.disable("x-powered-by");
app.use(stopper.track);
// Checked at boot by app/lib/env.server.ts (the build's import above fails on a bad value).
app.set("trust proxy", proxyTrustSetting(process.env.TRUST_PROXY) ?? false);
const trusts: (address: string, hop: number) => boolean = app.get("trust proxy fn");
const trustProxy = (req: ExpressRequest) => trusts(req.socket.remoteAddress ?? "", 0);
// The request's id: a trusted proxy's X-Request-Id when it has the safe shape, else a new one. On the
// answer, and for the app in place of whatever the client sent; everything the request does runs
// inside it (its log lines, the mails it queues, its error page), reading fresh if its visitor
// wrote a moment ago (app/lib/fresh-reads.server.ts).
app.use((req, res, next) => {
  const requestId = entry.requestIdFor(req.headers["x-request-id"], trustProxy(req));
  res.locals.requestId = requestId;
  res.setHeader("X-Request-Id", requestId);
  req.headers["x-request-id"] = requestId;
  entry.runWithRequest(requestId, next, { readsFresh: entry.readsFreshFrom(req.headers.cookie) });
});
// Every answer counted by the route that gave it (never by its URL), its method and status.
app.use(requestMetrics({ routeOf: routeLabeller(build.routes, { "routes/api.$": entry.apiEndpointId }), observe: entry.observeRequest }));
app.use(compression());
const staticOptions = { dotfiles: "ignore", redirect: false, index: false } as const;
app.use("/assets", express.static(path.join(buildDir, "client", "assets"), { ...staticOptions, immutable: true, maxAge: "1y" }));
// build/client's other files (favicon.svg …) all have an extension: a page's path is not looked for
// on disk (one stat call less per page, ADR 0016).
const publicFiles = express.static(path.join(buildDir, "client"), { ...staticOptions, maxAge: "1h" });
app.use((req, res, next) => (/\.[A-Za-z0-9]+$/.test(req.path) ? publicFiles(req, res, next) : next()));
// Method, path, status, length and time; never a query value (reset tokens, emails).
app.use(accessLog((message, fields) => entry.log.info(message, fields)));
// Prometheus' scrape: for METRICS_TOKEN or METRICS_ALLOW's addresses (checked at boot), never cached or limited.
app.get(
  "/metrics",
  metricsEndpoint({
    token: process.env.METRICS_TOKEN?.trim() || null,
    allow: metricsAllowList(process.env.METRICS_ALLOW)!,
    trustProxy,
    read: entry.metricsText,
  }),
);
// Origin check, body size and NUL refusal before Remix.
app.use(requestGate({ trustProxy, warn: (message) => entry.log.warn(message) }));
app.use((req, _res, next) => {
  req.headers[CLIENT_ADDRESS_HEADER] = req.ip ?? req.socket.remoteAddress ?? "";
  next();
});

// Remix, behind the anonymous page cache (ADR 0016): a page asked for without any cookie is
// rendered once per data generation and served again with a fresh nonce.
// PAGE_CACHE=0 turns it off (to measure what a render costs).
const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
const pageCache =
  process.env.PAGE_CACHE?.trim() === "0" ? null : createPageCache({ generation: entry.dataGeneration, onAnswer: entry.countPageCache });
app.all("*", async (req, res, next) => {
  res.locals.remix = true;
  try {
    const request = remixRequest(req, res);
    // Decided on Express's request first: the API and signed-in visitors skip the cache's own checks.
    // /readyz is asked for often and must be fresh: straight to its route.
    const credentials = Boolean(req.headers.cookie || req.headers.authorization);
    const cacheable = pageCache && req.path !== "/readyz" && isCacheable(req.method, req.path, credentials);
    const response = cacheable ? await pageCache.handle(request, handleRequest) : await handleRequest(request);
    const wrote = entry.freshReadsCookie(request);
    if (wrote) res.append("Set-Cookie", wrote);
    await sendResponse(res, response);
  } catch (error) {
    next(error);
  }
});
// A request Express cannot read (`GET /%`): its 4xx, without a stack in the log.
app.use(requestErrors({ log: entry.logError }));

const KEEP_ALIVE_MS = 65_000;

// As app/lib/env.server.ts reads it: unset or blank is 3000.
const port = process.env.PORT?.trim() ? Number(process.env.PORT) : 3000;
const host = process.env.HOST;
const onListen = () => entry.log.info(`[shop] http://${host ?? "localhost"}:${port}`);
const server = host ? app.listen(port, host, onListen) : app.listen(port, onListen);
// An idle keep-alive connection is closed after 65 s, not Node's 5 s: a client (a proxy such as
// nginx, whose upstream connections idle up to 60 s; a browser; an API client's agent) that sends
// a request on a connection just as the server closes it gets a reset instead of an answer, so the
// server must be the side that waits longer. A stop still closes idle connections at once.
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.headersTimeout = KEEP_ALIVE_MS + 1000;
stopper.onSignals(server);
