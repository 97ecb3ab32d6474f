// The production server: Express with the Remix request handler, as remix-serve does
// (compression, hashed assets cached for a year, a request log, here without query values:
// scripts/access-log.mjs), plus one thing remix-serve cannot do: tell the app the client's
// address, so rate limits hold per address.
// The address is the socket's peer, or behind a trusted proxy what it reports (Express "trust
// proxy": the right-most X-Forwarded-For entry it added, not the client's own claim). TRUST_PROXY=1
// trusts whatever connects; a list of addresses or ranges trusts only those (app/lib/proxy-trust.mjs).
// Startup: the build's import migrates and loads the secrets; a reason not to start (a bad variable, a
// secret the other servers do not share, migrations newer than this code) is printed alone, exit 1.
// SIGTERM/SIGINT: not ready at once (GET /readyz 503); with SHUTDOWN_DELAY_MS the server keeps serving
// that long (a health-checking load balancer stops routing here first); then no new connections, idle
// kept-alive ones closed, requests in flight finish (at most SHUTDOWN_TIMEOUT_MS, 10 s), then the shutdown hooks and
// the database's close (app/lib/lifecycle.server.ts), exit 0.
import path from "node:path";
import { createReadableStreamFromReadable, createRequestHandler, installGlobals, writeReadableStreamToWritable } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { createPageCache, isCacheable } from "../app/lib/page-cache.mjs";
import { proxyTrustSetting } from "../app/lib/proxy-trust.mjs";
import { accessLog } from "./access-log.mjs";
import { importBuild } from "./import-build.mjs";
import { requestErrors, requestGate } from "./request-gate.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const buildPath = path.join(root, "build", "server", "index.js");
// Production unless told otherwise, as remix-serve (run directly, this is still the production server).
process.env.NODE_ENV ??= "production";
// Read by app/lib/rate-limit.server.ts: the header below is set by this server, so it can be trusted.
globalThis.__shopClientAddressHeader = "x-shop-client-address";

const build = await importBuild(buildPath, "shop");
const lifecycle = build.entry.module;
installGlobals({ nativeFetch: build.future.v3_singleFetch });

// Checked at boot by app/lib/env.server.ts (the build's import above fails on a bad value).
const trustSetting = proxyTrustSetting(process.env.TRUST_PROXY) ?? false;
const app = express();
app.disable("x-powered-by");
// While stopping: every answer not yet begun closes its connection (one in flight too), and a
// connection left idle is closed at once.
let stopping = false;
const inFlight = new Set();
app.use((_req, res, next) => {
  if (stopping) res.setHeader("Connection", "close");
  inFlight.add(res);
  res.once("close", () => inFlight.delete(res));
  res.once("finish", () => stopping && setImmediate(() => server.closeIdleConnections()));
  next();
});
app.set("trust proxy", trustSetting);
const trusts = app.get("trust proxy fn");
const trustProxy = (req) => trusts(req.socket.remoteAddress ?? "", 0);
app.use(compression());
const staticOptions = { dotfiles: "ignore", redirect: false, index: false };
app.use("/assets", express.static(path.join(root, "build", "client", "assets"), { ...staticOptions, immutable: true, maxAge: "1y" }));
// build/client's other files (favicon.svg …) all have an extension: a page's path is not looked for
// on disk (one stat call less per page, ADR 0016).
const publicFiles = express.static(path.join(root, "build", "client"), { ...staticOptions, maxAge: "1h" });
app.use((req, res, next) => (/\.[A-Za-z0-9]+$/.test(req.path) ? publicFiles(req, res, next) : next()));
// Method, path, status, length and time; never a query value (reset tokens, emails).
app.use(accessLog());
// Origin check, body size and NUL refusal before Remix (scripts/request-gate.mjs).
app.use(requestGate({ trustProxy }));
app.use((req, _res, next) => {
  // Overwrites whatever a client sent under the same name.
  req.headers[globalThis.__shopClientAddressHeader] = req.ip ?? req.socket.remoteAddress ?? "";
  next();
});
// Express's request as the Fetch API's, and back: what @remix-run/express does (its helpers are
// not exported), so that the page cache below can stand between the two.
function remixRequest(req, res) {
  // req.hostname respects "trust proxy"; the port comes from X-Forwarded-Host or Host, as the adapter has it.
  const portOf = (value) => Number.parseInt(value?.split(":")[1] ?? "", 10);
  const port = [portOf(req.get("X-Forwarded-Host")), portOf(req.get("host"))].find((p) => Number.isSafeInteger(p));
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value) headers.set(name, value);
  }
  let controller = new AbortController();
  // Loaders are aborted when the answer can no longer be written (close without finish).
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") Object.assign(init, { body: createReadableStreamFromReadable(req), duplex: "half" });
  return new Request(url.href, init);
}

async function sendResponse(res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

// Remix, behind the anonymous page cache (app/lib/page-cache.mjs, ADR 0016): a page asked for
// without any cookie is rendered once per data generation and served again with a fresh nonce.
// PAGE_CACHE=0 turns it off (to measure what a render costs).
const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
const pageCache = process.env.PAGE_CACHE?.trim() === "0" ? null : createPageCache();
app.all("*", async (req, res, next) => {
  try {
    const request = remixRequest(req, res);
    // Decided on Express's request first: the API and signed-in visitors skip the cache's own checks.
    // /readyz is asked for often and must be fresh: straight to its route.
    const credentials = Boolean(req.headers.cookie || req.headers.authorization);
    const cacheable = pageCache && req.path !== "/readyz" && isCacheable(req.method, req.path, credentials);
    const response = cacheable ? await pageCache.handle(request, handleRequest) : await handleRequest(request);
    await sendResponse(res, response);
  } catch (error) {
    next(error);
  }
});
// A request Express cannot read (`GET /%`): its 4xx, without a stack in the log.
app.use(requestErrors());

// As app/lib/env.server.ts reads it: unset or blank is 3000.
const port = process.env.PORT?.trim() ? Number(process.env.PORT) : 3000;
const host = process.env.HOST;
const onListen = () => console.info(`[shop] http://${host ?? "localhost"}:${port}`);
const server = host ? app.listen(port, host, onListen) : app.listen(port, onListen);
// As app/lib/env.server.ts reads it (and has checked it): unset or blank is 10 s.
const shutdownTimeoutMs = process.env.SHUTDOWN_TIMEOUT_MS?.trim() ? Number(process.env.SHUTDOWN_TIMEOUT_MS) : 10_000;
// As app/lib/env.server.ts reads it (and has checked it): unset or blank is 0.
const shutdownDelayMs = process.env.SHUTDOWN_DELAY_MS?.trim() ? Number(process.env.SHUTDOWN_DELAY_MS) : 0;

let signalled = false;
async function stop(signal) {
  if (signalled) return; // a second signal changes nothing: the time limit ends the wait
  signalled = true;
  lifecycle.beginShutdown();
  if (shutdownDelayMs > 0) {
    console.info(`[shop] ${signal}: not ready (GET /readyz 503); still serving for ${shutdownDelayMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, shutdownDelayMs));
  }
  stopping = true;
  for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
  console.info(`[shop] ${signal}: no new connections; finishing the requests in flight (at most ${shutdownTimeoutMs} ms)`);
  const closed = new Promise((resolve) => server.close(() => resolve(true)));
  server.closeIdleConnections();
  let timer;
  const finished = await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(() => resolve(false), shutdownTimeoutMs)))]);
  clearTimeout(timer);
  if (!finished) {
    console.warn(`[shop] requests still running after ${shutdownTimeoutMs} ms: their connections are closed`);
    server.closeAllConnections();
  }
  await lifecycle.shutdown();
  console.info("[shop] stopped");
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => void stop(signal));
