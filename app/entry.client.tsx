// The browser entry, as Remix writes it: hydrate the server's document in a transition (React 18
// then hydrates in slices and yields to the browser between them), in StrictMode.
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
