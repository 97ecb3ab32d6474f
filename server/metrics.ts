// GET /metrics: the process's metrics in Prometheus' text format (app/lib/metrics.server.ts, reached
// through the build's entry), for whoever holds METRICS_TOKEN (Authorization: Bearer, compared in
// constant time) or asks from an address METRICS_ALLOW names (default loopback). The address is
// Express's req.ip, so TRUST_PROXY's rules apply: a client's own X-Forwarded-For never counts. A
// request relayed by a proxy the server does not trust (it carries X-Forwarded-For, Forwarded or
// X-Real-IP, and TRUST_PROXY does not name its sender) is never allowed by address: its address is
// the proxy's, so with a proxy on loopback and TRUST_PROXY unset, anyone could read through it.
// Anyone else gets 403 and a bare "Forbidden". Served before the page cache and the request gate,
// and no rate limit applies to it. Also: the per-request counting of every answer, by route id.
import crypto from "node:crypto";
import type net from "node:net";
import type { Request, RequestHandler } from "express";
import { isAllowedAddress } from "../app/lib/metrics-access";

export interface MetricsEndpointOptions {
  /** METRICS_TOKEN, or null: then only the allowed addresses may read */
  token: string | null;
  allow: net.BlockList;
  /** whether the request's sender is a proxy TRUST_PROXY trusts to name the client */
  trustProxy: (req: Request) => boolean;
  /** the metrics text and its content type */
  read: () => Promise<{ contentType: string; body: string }>;
}

const digest = (value: string) => crypto.createHash("sha256").update(value).digest();

/** Whether the Authorization header carries `token` as a bearer token, compared in constant time. */
export function hasBearer(header: string | undefined, token: string | null): boolean {
  if (!token || !header) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  // Digests of equal length: timingSafeEqual then takes as long whatever the guess.
  return Boolean(match) && crypto.timingSafeEqual(digest(match![1]!), digest(token));
}

/** Whether a proxy relayed the request: it names a client other than its sender. */
function relayed(req: Request): boolean {
  return req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined || req.headers["x-real-ip"] !== undefined;
}

export function metricsEndpoint({ token, allow, trustProxy, read }: MetricsEndpointOptions): RequestHandler {
  return (req, res, next) => {
    res.locals.route = "metrics";
    res.setHeader("Cache-Control", "no-store");
    const byAddress = (!relayed(req) || trustProxy(req)) && isAllowedAddress(allow, req.ip);
    if (!hasBearer(req.headers.authorization, token) && !byAddress) {
      res.status(403).type("text/plain").send("Forbidden");
      return;
    }
    read().then(({ contentType, body }) => {
      // prom-client's own content type, exactly (Express's type() would add a charset of its own).
      res.status(200).setHeader("Content-Type", contentType);
      res.end(body);
    }, next);
  };
}

/** Methods counted under their own name; any other a client invents is "other" (labels stay a bounded set). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export interface RequestMetricsOptions {
  /** the route id a path was answered by (server/route-label.ts) */
  routeOf: (pathname: string) => string;
  observe: (route: string, method: string, status: number, seconds: number) => void;
}

/**
 * Counts every answer once its connection is done with it: by the route that answered (the Remix
 * route id, "static" for files, "metrics", or "server" for what the server answered itself: a
 * refusal at the door, a request it could not read), its method and status (499: the client left
 * before the answer ended). A constant amount of work per request.
 */
export function requestMetrics({ routeOf, observe }: RequestMetricsOptions): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const pathname = req.path;
    res.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route =
        typeof res.locals.route === "string"
          ? res.locals.route
          : res.locals.remix
            ? routeOf(pathname)
            : /^\/assets\/|\.[A-Za-z0-9]+$/.test(pathname)
              ? "static"
              : "server";
      observe(route, METHODS.has(req.method) ? req.method : "other", res.writableFinished ? res.statusCode : 499, seconds);
    });
    next();
  };
}
