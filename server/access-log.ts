// The access log of the production server (server/index.ts): morgan's "tiny" line (method, path,
// status, length, time) without the secrets a URL can carry. Query values are never written (a
// reset link's `token`, the `email` of /verify-otp): `/reset-password?token=[redacted]`. A query
// name that is not a plain word, and a path segment holding an email address, are redacted whole.
import type { IncomingMessage, ServerResponse } from "node:http";
import morgan from "morgan";
import type { Options, TokenIndexer } from "morgan";

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

/** Express's request, as morgan sees it (originalUrl is Express's own). */
type LoggedRequest = IncomingMessage & { originalUrl?: string };

/** A morgan format: "tiny" with loggedUrl in place of the URL. */
export function accessLine(tokens: TokenIndexer<LoggedRequest, ServerResponse>, req: LoggedRequest, res: ServerResponse): string {
  const field = (value: string | undefined) => value ?? "-";
  return [
    tokens.method(req, res),
    loggedUrl(req.originalUrl || req.url || "/"),
    field(tokens.status(req, res)),
    field(tokens.res(req, res, "content-length")),
    "-",
    field(tokens["response-time"](req, res)),
    "ms",
  ].join(" ");
}

/** The access-log middleware; `options` are morgan's (the tests pass a `stream`). */
export function accessLog(options: Options<LoggedRequest, ServerResponse> = {}) {
  return morgan<LoggedRequest, ServerResponse>(accessLine, options);
}
