import { createContext, useContext, useEffect, useState } from "react";

// The id of the request a server error's page answered (its X-Request-Id), for the customer to
// quote to the shop: app/entry.server.tsx provides it while rendering a 5xx page, and no other.
const RequestReferenceContext = createContext<string | null>(null);
export const RequestReferenceProvider = RequestReferenceContext.Provider;

/** The element the reference is drawn in (components/ErrorPage), read back by the browser as it hydrates. */
export const REFERENCE_ID = "request-reference";

/** True until an error page has hydrated: only then does the reference in the document belong to this render. */
let hydrating = true;

/** The reference of the latest answer to a request for page data (Remix's `.data`), when it was a server error. */
let lastDataFailure: string | null = null;

/** The id a request's answer carries (the production server sets it on every answer). */
const ANSWER_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Called once by the browser's entry: notes the id of each answer to a request for page data
 * (a client navigation's, a form post's, a revalidation's), kept when the server failed (5xx) and
 * forgotten at the next answer that did not. The page's data is fetched by Remix itself, which
 * hands its error boundary the error but not the answer: this is how the error page learns the id.
 */
export function noteDataRequestFailures(): void {
  const fetchPage = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const answer = await fetchPage(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    if (url.origin === window.location.origin && url.pathname.endsWith(".data")) {
      const id = answer.headers.get("X-Request-Id");
      lastDataFailure = answer.status >= 500 && id && ANSWER_ID.test(id) ? id : null;
    }
    return answer;
  };
}

/**
 * The request's reference on a server error's page. In the browser the page hydrates what the
 * server drew, so the first render reads the reference from it; an error met later in the browser
 * (a navigation or a post whose data failed) shows the id of the failed answer for page data.
 */
export function useRequestReference(): string | null {
  const fromServer = useContext(RequestReferenceContext);
  const [reference] = useState(() => {
    if (typeof document === "undefined") return fromServer;
    const drawn = hydrating ? document.getElementById(REFERENCE_ID)?.textContent : null;
    return drawn ?? lastDataFailure;
  });
  useEffect(() => {
    hydrating = false;
  }, []);
  return reference;
}
