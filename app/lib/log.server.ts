// The server's one log. In production each line is a JSON object (pino): time, level, message, the
// process (pid, host) and, when the line is written while serving a request, that request's id
// (`requestId`, the answer's X-Request-Id: app/lib/request-context.server.ts), so one customer's
// failed request can be followed through every line it wrote. Elsewhere (development, tests) each
// line is readable text through the console: the message, then its fields.
//
// What a line may hold: about a failure, the error's name, message and stack (and its causes),
// never its other fields (a pg error's `detail` names the row's values, a driver error may carry
// the query's parameters, a mail error the rejected recipients), and every email address masked.
// Never a password, a token, a code or a signature: no request body or header is ever logged, and
// the access log (server/access-log.ts) writes no query value.
import pino from "pino";
import { currentRequestId } from "./request-context.server";
import { remember } from "./remember.server";

const LOCAL_CHAR = /[\w.!#$%&'*+=?^`{|}~-]/;
const DOMAIN_CHAR = /[A-Za-z0-9.-]/;
const DOMAIN = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
const MAX_CAUSES = 3;

/**
 * Text for the log with every email address replaced. Walks out from each '@' instead of
 * matching a pattern over the whole text: a global pattern retried at every position of a long
 * run of name characters took quadratic time on a stranger's 15 KB path (the 2026-11-23 review).
 * Each character is looked at a bounded number of times.
 */
export function maskEmails(text: string): string {
  let out = "";
  let copied = 0;
  let previousAt = -1;
  for (let at = text.indexOf("@"); at !== -1; previousAt = at, at = text.indexOf("@", at + 1)) {
    let start = at;
    while (start > Math.max(copied, previousAt + 1) && LOCAL_CHAR.test(text[start - 1]!)) start--;
    let end = at + 1;
    while (end < text.length && DOMAIN_CHAR.test(text[end]!)) end++;
    while (end > at + 1 && (text[end - 1] === "." || text[end - 1] === "-")) end--;
    if (start === at || !DOMAIN.test(text.slice(at + 1, end))) continue;
    out += `${text.slice(copied, start)}[email]`;
    copied = end;
  }
  return out + text.slice(copied);
}

function describeError(error: unknown, withStack: boolean): string {
  if (error instanceof Error) return (withStack && error.stack) || `${error.name}: ${error.message}`;
  if (typeof error === "string") return error;
  // Remix's route error responses: their status, and the error inside when there is one.
  if (typeof error === "object" && error !== null && "status" in error) {
    const inner = "error" in error && error.error instanceof Error ? `: ${describeError(error.error, withStack)}` : "";
    return `${String(error.status)} ${"statusText" in error ? String(error.statusText) : ""}${inner}`.trim();
  }
  return `a thrown ${error === null ? "null" : typeof error}`;
}

/** An error's message (a thrown value's description), email addresses masked. */
export function errorMessage(error: unknown): string {
  return maskEmails(describeError(error, false));
}

/** Logs an unforeseen failure: what failed, then the error's stack and causes, email addresses masked. */
export function logError(what: string, error: unknown): void {
  const parts = [describeError(error, true)];
  let cause = error instanceof Error ? error.cause : undefined;
  for (let i = 0; cause !== undefined && i < MAX_CAUSES; i++) {
    parts.push(`caused by ${describeError(cause, true)}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  log.error(`${what}: ${maskEmails(parts.join("\n"))}`);
}

/** Fields of a log line: plain values only (what happened, ids, figures), never a request's body or headers. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Log {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** The request id (when there is one) for pino's mixin: called once per line, O(1). */
function requestFields(): { requestId?: string } {
  const requestId = currentRequestId();
  return requestId ? { requestId } : {};
}

/** One JSON object a line on standard output, with ISO times, the request id mixed into every line. */
function jsonLog(): Log {
  const logger = pino({
    level: process.env.LOG_LEVEL?.trim() || "info",
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: requestFields,
    formatters: { level: (label) => ({ level: label }) },
  });
  const at =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      if (fields) logger[level](fields, message);
      else logger[level](message);
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** How each level reaches the console (no debug of its own there: info), looked up at each call (tests spy on it). */
const CONSOLE: Record<LogLevel, (line: string) => void> = {
  debug: (line) => console.info(line),
  info: (line) => console.info(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

/** The line as a person reads it: the message first, then `name=value` fields, then the request's id. */
export function readableLine(message: string, fields: LogFields | undefined, requestId: string | null): string {
  const { requestId: given, ...rest } = fields ?? {};
  const extra = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${String(value)}`);
  const id = given ?? requestId;
  if (id) extra.push(`request=${id}`);
  return extra.length ? `${message} ${extra.join(" ")}` : message;
}

/** Readable lines through the console (development's terminal, the tests' spies). */
function consoleLog(): Log {
  const at =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void =>
      CONSOLE[level](readableLine(message, fields, currentRequestId()));
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** The process's log: JSON lines in production, readable lines elsewhere. */
export const log: Log = remember("log", () => (process.env.NODE_ENV === "production" ? jsonLog() : consoleLog()));
