import type { EntryContext } from "@remix-run/node";
import { createElement, lazy, Suspense } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { pageDataScripts, pageDataStream, renderedWhole, renderPage, scriptSafeJson, takePageData } from "./page-render.server";

/** A stream that hands out the given pieces one read at a time, as Remix's encoder does. */
function streamOf(...pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const next = pieces.shift();
      if (next === undefined) controller.close();
      else {
        await new Promise((resolve) => setImmediate(resolve));
        controller.enqueue(encoder.encode(next));
      }
    },
  });
}

const contextWith = (stream?: ReadableStream<Uint8Array>) => ({ serverHandoffStream: stream }) as unknown as EntryContext;

const answer = (userAgent = "Mozilla/5.0") => ({
  request: new Request("http://shop.test/product/sofa", { headers: { "user-agent": userAgent } }),
  status: 200,
  headers: new Headers(),
  nonce: "bm9uY2U=",
  streamTimeout: 1000,
});

const page = (...children: Parameters<typeof createElement>[2][]) => createElement("html", null, createElement("body", null, ...children));

function Thrower(): never {
  throw new Error("a region broke");
}

afterEach(() => vi.restoreAllMocks());

describe("a page's loader data", () => {
  it("is read whole, across chunks and a character split between them, and taken out of the context", async () => {
    const bytes = new TextEncoder().encode('[{"price":"₹1,23,456"}]\n');
    const split = bytes.indexOf(0xe2) + 1; // inside the three bytes of ₹
    const context = contextWith(
      new ReadableStream({
        start(controller) {
          controller.enqueue(bytes.slice(0, split));
          controller.enqueue(bytes.slice(split));
          controller.close();
        },
      }),
    );
    expect(await takePageData(context)).toBe('[{"price":"₹1,23,456"}]\n');
    expect(context.serverHandoffStream).toBeUndefined();
    expect(await takePageData(contextWith(streamOf("[1,", "2]\n", "P1:[3]\n")))).toBe("[1,2]\nP1:[3]\n");
    expect(await takePageData(contextWith())).toBeNull();
  });

  it("becomes a stream again with the same text", async () => {
    expect(await takePageData(contextWith(pageDataStream("[1,2]\nP1:[3]\n")))).toBe("[1,2]\nP1:[3]\n");
  });

  it("goes into scripts no text can break out of", () => {
    const hostile = "x</script><script>alert(1)</script><!-- & \u2028\u2029";
    const json = scriptSafeJson(hostile);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toBe(hostile);
    const scripts = pageDataScripts(hostile, "bm9uY2U=");
    expect(scripts.match(/<\/script>/g)).toHaveLength(2);
    expect(scripts).toBe(
      `<script nonce="bm9uY2U=">window.__remixContext.streamController.enqueue(${json});</script>` +
        '<script nonce="bm9uY2U=">window.__remixContext.streamController.close();</script>',
    );
  });
});

describe("renderedWhole", () => {
  it("is false only when React left a boundary to the browser", () => {
    expect(renderedWhole("<html><body><!--$--><p>ok</p><!--/$--></body></html>")).toBe(true);
    expect(renderedWhole("<html><body><p>&lt;!--$!--&gt;</p></body></html>")).toBe(true);
    expect(renderedWhole('<html><body><!--$!--><template data-dgst="x"></template><!--/$--></body></html>')).toBe(false);
  });
});

describe("renderPage", () => {
  it("answers a whole page in one piece: the doctype, the HTML, then its data", async () => {
    const context = contextWith(streamOf("[1]\n"));
    const response = await renderPage(page(createElement(Suspense, null, createElement("p", null, "Sofa"))), context, answer());
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("Content-Security-Policy")).toContain("'nonce-bm9uY2U='");
    const html = await response.text();
    expect(html).toBe(`<!DOCTYPE html><html><body><!--$--><p>Sofa</p><!--/$--></body></html>${pageDataScripts("[1]\n", "bm9uY2U=")}`);
  });

  it("streams a page whose boundary threw: the error is logged, the answer is a 500, the data stays for the render", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void logged.push(String(line)));
    const context = contextWith(streamOf("[1]\n"));
    const response = await renderPage(
      page(createElement("h1", null, "Sofa"), createElement(Suspense, { fallback: createElement("i", null, "…") }, createElement(Thrower))),
      context,
      answer(),
    );
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("<h1>Sofa</h1>");
    expect(logged).toEqual([expect.stringMatching(/^rendering failed: Error: a region broke/)]);
    expect(await takePageData(context)).toBe("[1]\n");
  });

  it("streams a page whose boundary suspended, and waits for it", async () => {
    const Later = lazy(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { default: () => createElement("p", null, "Reviews") };
    });
    const response = await renderPage(page(createElement(Suspense, null, createElement(Later))), contextWith(), answer("Googlebot/2.1"));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<p>Reviews</p>");
    expect(html).not.toContain("<!--$!-->");
  });
});
