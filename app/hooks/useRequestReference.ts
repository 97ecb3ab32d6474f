import { createContext, useContext, useEffect, useState } from "react";

// The id of the request a server error's page answered (its X-Request-Id), for the customer to
// quote to the shop: app/entry.server.tsx provides it while rendering a 5xx page, and no other.
const RequestReferenceContext = createContext<string | null>(null);
export const RequestReferenceProvider = RequestReferenceContext.Provider;

/** The element the reference is drawn in (components/ErrorPage), read back by the browser as it hydrates. */
export const REFERENCE_ID = "request-reference";

/** True until an error page has hydrated: only then does the reference in the document belong to this render. */
let hydrating = true;

/**
 * The request's reference on a server error's page. In the browser the page hydrates what the
 * server drew, so the first render reads the reference from it; an error met later in the browser
 * (a navigation whose data failed) has none, since Remix hands its error boundary the error but
 * not the answer that carried the id: its page offers to load the page again from the server,
 * whose error page, if the error happens again, shows the reference.
 */
export function useRequestReference(): string | null {
  const fromServer = useContext(RequestReferenceContext);
  const [reference] = useState(() => {
    if (typeof document === "undefined") return fromServer;
    return hydrating ? (document.getElementById(REFERENCE_ID)?.textContent ?? null) : null;
  });
  useEffect(() => {
    hydrating = false;
  }, []);
  return reference;
}
