import type { EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isbot } from "isbot";
import type { ReactElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { CoalescingStream } from "~/lib/html-stream.server";
import { logError } from "~/lib/log.server";
import { applySecurityHeaders } from "~/lib/security-headers.server";

// A page is rendered in one synchronous pass (React's renderToString), with the loader data the
// browser hydrates from written after it: the same bytes, in the same protocol, that Remix's
// streaming render writes through its <StreamTransfer> boundary, but without React's streaming
// machinery, which cost a fifth of a rendered page's server time (ADR 0016).
//
// The protocol: <Scripts> (always rendered by the root's Layout) opens
// `window.__remixContext.stream`, whose controller each data script feeds; the browser's entry
// decodes that stream (turbo-stream) into the routes' loader data.

/**
 * Takes the page's loader data out of Remix's context, read whole, as the text Remix encoded it
 * in. Without its stream, <RemixServer> renders no <StreamTransfer> of its own. Data a loader
 * defers is waited for here (Remix's encoder gives up on it after `streamTimeout`); the shop's
 * pages defer none.
 */
export async function takePageData(context: EntryContext): Promise<string | null> {
  const stream = context.serverHandoffStream;
  if (!stream) return null;
  context.serverHandoffStream = undefined;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

/** The data again as a stream, for a render that streams after all (`renderedWhole`). */
export function pageDataStream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

const SCRIPT_UNSAFE: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * A JSON text made safe inside an inline <script>: no `</script>` or `<!--` can close or change
 * it, whatever a product's description holds, and it stays valid JavaScript.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => SCRIPT_UNSAFE[char]);
}

/** The scripts that hand the page's data to the browser's Remix, then close its stream. */
export function pageDataScripts(text: string, nonce: string): string {
  const feed = `window.__remixContext.streamController.enqueue(${scriptSafeJson(text)});`;
  const close = "window.__remixContext.streamController.close();";
  return `<script nonce="${nonce}">${feed}</script><script nonce="${nonce}">${close}</script>`;
}

/**
 * False when a <Suspense> boundary of the page was left for the browser to render: a component in
 * it threw, or suspended (renderToString waits for nothing and reports neither). React marks such
 * a boundary `<!--$!-->`; text and attributes never hold it (React escapes their `<`), nor do the
 * page's inline scripts (their JSON is escaped the same way).
 */
export function renderedWhole(html: string): boolean {
  return !html.includes("<!--$!-->");
}

type Answer = { request: Request; status: number; headers: Headers; nonce: string; streamTimeout: number };

/**
 * A page's answer: rendered in one synchronous pass, its loader data written after it. A page with
 * a boundary left for the browser (a component in it threw or suspended) is rendered again by
 * streaming, which waits for what suspended and reports what threw (500).
 */
export async function renderPage(page: ReactElement, context: EntryContext, answer: Answer): Promise<Response> {
  const data = await takePageData(context);
  const html = renderToString(page);
  if (!renderedWhole(html)) {
    if (data !== null) context.serverHandoffStream = pageDataStream(data);
    return streamPage(page, answer);
  }
  answer.headers.set("Content-Type", "text/html; charset=utf-8");
  applySecurityHeaders(answer.headers, answer.nonce);
  const body = `<!DOCTYPE html>${html}${data === null ? "" : pageDataScripts(data, answer.nonce)}`;
  return new Response(body, { headers: answer.headers, status: answer.status });
}

/** The page rendered as a stream: from its shell on, or, for a crawler, once all of it is ready. */
function streamPage(page: ReactElement, { request, status, headers, nonce, streamTimeout }: Answer) {
  const forCrawler = isbot(request.headers.get("user-agent") || "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // What threw inside a <Suspense> boundary before the shell was ready (the shell itself throwing
    // rejects instead, and Remix reports it): reported once the shell is known to have rendered.
    const boundaryErrors: unknown[] = [];
    const abortTimer = setTimeout(() => rendering.abort(), streamTimeout + 1000);
    const startAnswer = () => {
      shellRendered = true;
      for (const error of boundaryErrors) logError("rendering failed", error);
      const body = new CoalescingStream();
      const stream = createReadableStreamFromReadable(body);
      headers.set("Content-Type", "text/html; charset=utf-8");
      applySecurityHeaders(headers, nonce);
      resolve(new Response(stream, { headers, status }));
      rendering.pipe(body);
    };
    const rendering = renderToPipeableStream(page, {
      nonce,
      onShellReady: forCrawler ? undefined : startAnswer,
      onAllReady() {
        // A render that finished needs no abort: the timer would keep the whole render in memory for its 6 s.
        clearTimeout(abortTimer);
        if (forCrawler) startAnswer();
      },
      onShellError(error: unknown) {
        clearTimeout(abortTimer);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        if (shellRendered) logError("rendering failed", error);
        else boundaryErrors.push(error);
      },
    });
  });
}
