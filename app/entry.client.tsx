// The browser entry: Remix's default (hydrate the document in a transition, in StrictMode), plus
// one change to how Remix's own requests reach the page, so that moving on logs no error, and a
// wait for the page's data before hydrating (for Preact, below).
//
// Remix asks the server for two kinds of things while a page is shown: route discovery
// (GET /__manifest?p=…, v3_lazyRouteDiscovery: right after hydrating and 100 ms after new links
// render) and the data of each navigation, fetcher and form post (single fetch, *.data). Such a
// request is often cut short, as designed: the router aborts it when the visitor clicks on
// before it has finished, and Chromium cancels it when the visitor leaves for another document
// (a typed address, reload, a link or form that loads a new document). @remix-run/react 2.17
// then logs an error although nothing went wrong:
//   - "Failed to fetch manifest patches TypeError: Failed to fetch" (fog-of-war.js: the eager
//     discovery has no AbortSignal, so a request cancelled by leaving looks like a failure;
//     the rejection is handled during the old page's 'pagehide', so it reaches the console);
//   - the abort itself, "AbortError: signal is aborted without reason", or "TypeError: network
//     error" when the cut comes while the answer's body is being decoded (single-fetch.js logs
//     every decoding error before re-throwing it, even for a request the router then drops).
//
// remixFetch below keeps Remix's behaviour and the failures it should see, without those logs:
//   - the answer is read whole before Remix gets it, so a cut always fails the request itself
//     (which the router knows how to drop when it aborted it), never the decoding. The shop's
//     loaders return plain data (no deferred promises to stream), so nothing arrives later for
//     it; a loader that starts streaming deferred data must take *.data out of this;
//   - a failure is handed on one task later, once the page is shown: a page being unloaded
//     never runs that task or comes back. Every failure while the page is shown (an error
//     status, the server gone) still reaches Remix.
// Every other request of the page goes straight to the browser's fetch.
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

const browserFetch = window.fetch.bind(window);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

// Failures noticed after the page was hidden wait until it is shown again (back from the
// back/forward cache); for a page that is unloaded, that never comes.
let pageHidden = false;
const failuresWhileHidden: (() => void)[] = [];
window.addEventListener("pagehide", () => (pageHidden = true));
window.addEventListener("pageshow", () => {
  pageHidden = false;
  for (const fail of failuresWhileHidden.splice(0)) fail();
});

function isRemixRequest(input: RequestInfo | URL): boolean {
  const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
  return url.origin === window.location.origin && (url.pathname.endsWith("/__manifest") || url.pathname.endsWith(".data"));
}

async function remixFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    const response = await browserFetch(input, init);
    if (response.status < 200 || response.status > 599) return response;
    const body = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  } catch (error) {
    return new Promise<Response>((_, reject) => {
      setTimeout(() => {
        if (pageHidden) failuresWhileHidden.push(() => reject(error));
        else reject(error);
      }, 0);
    });
  }
}

window.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
  isRemixRequest(input) ? remixFetch(input, init) : browserFetch(input, init);

// RemixBrowser's first render suspends (throws a promise) until the page's loader data, streamed
// inline into the HTML, is decoded. React waits for it at the root; Preact, which the browser
// build runs on (ADR 0028), cannot hydrate a tree suspended at its root, so the decoding is
// started and waited for here first: rendered afterwards, RemixBrowser no longer suspends. Its
// first lines read no hooks before that promise, so calling it bare is safe. Hydration also waits
// until the page's inline module script has set Remix's manifest (it runs before any promise
// settles), which Preact would otherwise read too early: it renders synchronously.
//
// Preact hydrates in one task (React 18 in a transition yields every 5 ms), and the decoded data's
// promise settles in the task that evaluated the page's modules: hydrating in a task of its own
// (setTimeout) splits one long task in two, which takes its 50 ms allowance twice off the page's
// Total Blocking Time (ADR 0028).
async function hydrate() {
  try {
    RemixBrowser({});
  } catch (thrown) {
    if (!(thrown instanceof Promise)) throw thrown;
    await thrown;
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}
void hydrate();
