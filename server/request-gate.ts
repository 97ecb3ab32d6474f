// The door of the production server (server/index.ts): every request passes here before Remix
// sees it. A cross-site state change is refused (403), a body larger than its path accepts (413)
// and a URL holding a NUL character (400), each with a short answer: JSON `{ message }` on the
// API, plain text on pages. Remix's own origin check would otherwise throw on a cross-site post
// to a page and answer 500. The rules are app/lib/request-rules.ts, which the app applies too.
import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";
import { bodyLimitFor, changesState, isApiPath, isSameSite } from "../app/lib/request-rules";

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function refuse(res: Response, pathname: string, status: number, message: string): void {
  res.status(status).set({ "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });
  // The body of a refused upload is not read: the connection ends after the answer.
  if (status === 413) res.set("Connection", "close");
  if (isApiPath(pathname)) res.json({ message });
  else res.type("text/plain; charset=utf-8").send(message);
}

export interface RequestGateOptions {
  /** whether a request came through a proxy the server trusts (a function of the request, or one answer for all, as in the tests) */
  trustProxy: boolean | ((req: Request) => boolean);
  /** told once when a request arrives through a proxy the server does not trust */
  warn?: (message: string) => void;
}

/**
 * Express middleware applying the door rules. `warn` is told once when a request arrives through a
 * proxy the server does not trust: every visitor then shares the proxy's address, and per-address
 * limits hold them all together.
 */
export function requestGate({ trustProxy, warn = console.warn }: RequestGateOptions): RequestHandler {
  const trusted = typeof trustProxy === "function" ? trustProxy : () => trustProxy;
  let warned = false;
  return (req, res, next) => {
    const viaTrustedProxy = trusted(req);
    if (!warned && !viaTrustedProxy && req.headers["x-forwarded-for"]) {
      warned = true;
      warn(
        `[shop] A request came through a proxy (X-Forwarded-For) from ${req.socket?.remoteAddress ?? "an unknown address"}, ` +
          "which TRUST_PROXY does not trust: every visitor through it shares its address for rate limits. " +
          "Set TRUST_PROXY to the proxy's address (or 1 when nothing but the proxy can reach this server).",
      );
    }
    const url = req.originalUrl ?? req.url;
    const pathname = url.split("?")[0] ?? "";
    if (url.includes("\u0000") || /%00/.test(url))
      return refuse(res, pathname, 400, "The request contains a character that is not allowed");
    // Only a proxy we trust may name the host (Remix's origin check reads this header whatever we trust).
    if (!viaTrustedProxy) {
      delete req.headers["x-forwarded-host"];
      delete req.headers["x-forwarded-proto"];
    }
    const header = (name: string) => firstValue(req.headers[name]) ?? null;
    if (!isSameSite({ method: req.method, pathname, header, trustProxy: viaTrustedProxy })) {
      return refuse(res, pathname, 403, "Cross-site request refused");
    }
    const length = Number(header("content-length") ?? "0");
    if (changesState(req.method) && length > bodyLimitFor(pathname)) return refuse(res, pathname, 413, "The request is too large");
    next();
  };
}

/** The status an error thrown inside Express carries (http-errors' `status` or `statusCode`), NaN when none. */
function statusOf(error: unknown): number {
  if (typeof error !== "object" || error === null) return Number.NaN;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  return Number(status ?? statusCode);
}

/**
 * Express error middleware, last in the chain: a request Express itself cannot read (a path whose
 * percent-encoding is broken, `GET /%`) answers its 4xx in the door's short shape without a stack in
 * the log (anyone could fill it); anything else is logged once and answers 500 without details.
 */
export function requestErrors({ log = console.error }: { log?: (message: string, error: unknown) => void } = {}): ErrorRequestHandler {
  // Express tells error middleware by its four parameters.
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const status = statusOf(error);
    const pathname = (req.originalUrl ?? req.url ?? "/").split("?")[0] ?? "/";
    if (status >= 400 && status < 500) return refuse(res, pathname, status, "The request could not be read");
    log("[shop] request failed", error);
    return refuse(res, pathname, 500, "Something went wrong");
  };
}
