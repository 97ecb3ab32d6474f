/// <reference types="vitest/config" />
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import type { ManualChunkMeta } from "rollup";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Everything the root route and the browser entry need at start (React, Remix, the shell's
 * components and shared utils) goes into one chunk: gzip then compresses it as one text instead
 * of some twenty small files (ADR 0016). So do the modules that three or more of the storefront's
 * main pages import (home, category, product, search: the product card, SEO tags …), which would
 * otherwise be requests of their own on each of those pages. What fewer of those pages import goes
 * into one chunk per set of pages ("product-page": the reviews, the delivery check …;
 * "category-search-page": list controls, pagination), not into the shell every page loads. Each of
 * those pages' own route module joins its page's chunk too ("product-page" holds the product
 * route), one gzip text instead of two (Rollup leaves the route a re-exporting stub of a few
 * bytes). Other route modules, and what only other routes import, keep chunks of their own.
 */
const SHELL_ROOTS = /\/app\/(root|entry\.client)\.tsx(\?|$)/;
const STOREFRONT_ROUTES = /\/app\/routes\/(_index|category\.\$slug|product\.\$slug|search)\.tsx(\?|$)/;
const ROUTE_MODULE = /\/app\/routes\//;
/** module id → the chunk it goes into: "shell", or the one of the storefront pages that import it ("product-page" …) */
let chunkOf: Map<string, string> | null = null;

/** Every module `from` imports statically, transitively, without entering another route module. */
function reachable(from: readonly string[], meta: ManualChunkMeta): Set<string> {
  const gathered = new Set<string>();
  const queue = [...from];
  while (queue.length > 0) {
    const next = queue.pop()!;
    if (gathered.has(next) || (ROUTE_MODULE.test(next) && !SHELL_ROOTS.test(next))) continue;
    gathered.add(next);
    queue.push(...(meta.getModuleInfo(next)?.importedIds ?? []));
  }
  return gathered;
}

function storefrontChunks(id: string, meta: ManualChunkMeta): string | undefined {
  if (!chunkOf) {
    chunkOf = new Map();
    const ids = [...meta.getModuleIds()];
    // The server build has no browser entry: nothing to gather there.
    if (ids.some((m) => /\/app\/entry\.client\.tsx$/.test(m))) {
      // what the storefront routes import, by the set of pages importing it; each route into its own page's chunk
      const pagesOf = new Map<string, string[]>();
      for (const route of ids.filter((m) => STOREFRONT_ROUTES.test(m))) {
        const page = route.match(STOREFRONT_ROUTES)![1].split(".")[0].replace("_index", "home");
        for (const m of reachable(meta.getModuleInfo(route)?.importedIds ?? [], meta)) pagesOf.set(m, [...(pagesOf.get(m) ?? []), page]);
        chunkOf.set(route, `${page}-page`);
      }
      for (const [m, pages] of pagesOf) chunkOf.set(m, pages.length >= 3 ? "shell" : `${pages.sort().join("-")}-page`);
      const roots = ids.filter((m) => SHELL_ROOTS.test(m));
      for (const m of reachable(roots, meta)) chunkOf.set(m, "shell");
    }
  }
  return /\.css(\?|$)/.test(id) ? undefined : chunkOf.get(id);
}

export default defineConfig({
  server: { port: 3000 },
  plugins: [
    // Each build (the browser's, then the server's) gathers its own shell.
    { name: "storefront-chunks", buildStart: () => void (chunkOf = null) },
    tailwindcss(),
    !process.env.VITEST &&
      remix({
        // The API's endpoint modules (routes/api.*.ts) are answered by its one splat route
        // (routes/api.$.ts, web/endpoints.server.ts), not listed as routes of their own (ADR 0016).
        ignoredRouteFiles: ["**/.*", "**/*.server.*", "**/*.test.*", "routes/api.[!$]*.ts"],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
          // `npm run dev`: Vite bundles every dependency the routes import before the first page,
          // instead of finding some while serving it and reloading the page under the visitor.
          unstable_optimizeDeps: true,
        },
      }),
    tsconfigPaths(),
    // Terser's two passes take 4 % off the browser's JS after gzip, React's included (ADR 0016); the
    // server's build stays unminified (readable stack traces).
    {
      name: "browser-minify",
      config: (config) =>
        config.build?.ssr ? {} : { build: { minify: "terser", terserOptions: { compress: { passes: 2 }, format: { comments: false } } } },
    },
  ],
  build: {
    target: "es2022",
    rollupOptions: { output: { manualChunks: storefrontChunks } },
  },
  test: {
    include: ["app/**/*.test.ts", "db/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/support/vitest-setup.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 20000,
  },
});
