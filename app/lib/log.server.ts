// What the server writes about a failure, and how: the error's name, message and stack (and its
// causes), never its other fields (a pg error's `detail` names the row's values, a driver error
// may carry the query's parameters, a mail error the rejected recipients), and every email
// address masked. The access log never writes a query value (server/access-log.ts).

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
  console.error(`${what}: ${maskEmails(parts.join("\n"))}`);
}
