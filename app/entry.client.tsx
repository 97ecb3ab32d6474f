// The browser entry: hydrate the server's document in a transition (React 18 then hydrates in
// slices and yields to the browser between them), in StrictMode, as Remix writes it.
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { noteDataRequestFailures } from "~/hooks/useRequestReference";

// An error page met in the browser shows the reference of the server's failed answer.
noteDataRequestFailures();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
