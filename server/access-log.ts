// The access log of the production server (server/index.ts): one line per answer, written through
// the app's log (app/lib/log.server.ts: a JSON line in production, with the request's id), reading
// as morgan's "tiny" did (method, path, status, length, time) without the secrets a URL can carry.
// Query values are never written (a reset link's `token`, the `email` of /verify-otp):
// `/reset-password?token=[redacted]`. A query name that is not a plain word, and a path segment
// holding an email address, are redacted whole.
import type { RequestHandler } from "express";

export const REDACTED = "[redacted]";

const PLAIN_NAME = /^[\w.-]{1,40}$/;
const EMAIL_LIKE = /@|%40/i;

/** The URL as the log shows it: the path, with each query parameter's name but never its value. */
export function loggedUrl(url: string): string {
  const q = url.indexOf("?");
  const path = (q === -1 ? url : url.slice(0, q))
    .split("/")
    .map((segment) => (EMAIL_LIKE.test(segment) ? REDACTED : segment))
    .join("/");
  const query = q === -1 ? "" : url.slice(q + 1);
  if (!query) return path;
  const params = query
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq === -1 ? pair : pair.slice(0, eq);
      if (!PLAIN_NAME.test(name)) return REDACTED;
      return eq === -1 ? name : `${name}=${REDACTED}`;
    });
  return `${path}?${params.join("&")}`;
}

/** One access line: method, logged URL, status, length (- when unknown, as a chunked answer's), time in ms. */
export function accessLine(method: string, url: string, status: number | "-", length: string | undefined, ms: number): string {
  return `${method} ${loggedUrl(url)} ${status} ${length ?? "-"} - ${ms.toFixed(3)} ms`;
}

/** Where access lines go: the app's log (its `info`), with the request's id as a field. */
export type AccessSink = (message: string, fields: { requestId?: string }) => void;

/** The access-log middleware: a line once the answer is done with (or the client left: status -). */
export function accessLog(write: AccessSink): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("close", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const length = res.getHeader("content-length");
      const status = res.headersSent ? res.statusCode : "-";
      const line = accessLine(req.method, req.originalUrl || req.url || "/", status, length === undefined ? undefined : String(length), ms);
      write(line, typeof res.locals.requestId === "string" ? { requestId: res.locals.requestId } : {});
    });
    next();
  };
}
