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
 * of some twenty small files (ADR 0016). So do the shared modules the storefront's main pages
 * import (home, category, product, search: a page's form fields, stock notes, dates, SEO tags …,
 * each under 1.3 KiB gzip), which would otherwise be eight to thirteen requests of their own on
 * each of those pages, a phone's first visit paying a round trip for several (ADR 0016, decision
 * 15). Route modules, and what only other routes import, keep chunks of their own.
 */
const SHELL_ROOTS = /\/app\/(root|entry\.client)\.tsx(\?|$)/;
const STOREFRONT_ROUTES = /\/app\/routes\/(_index|category\.\$slug|product\.\$slug|search)\.tsx(\?|$)/;
const ROUTE_MODULE = /\/app\/routes\//;
let shellModules: Set<string> | null = null;
function shellChunk(id: string, meta: ManualChunkMeta): string | undefined {
  if (!shellModules) {
    const gathered = new Set<string>();
    const ids = [...meta.getModuleIds()];
    // The server build has no browser entry: nothing to gather there.
    const browser = ids.some((m) => /\/app\/entry\.client\.tsx$/.test(m));
    const queue = browser ? ids.filter((m) => SHELL_ROOTS.test(m)) : [];
    // what the storefront routes import, not the routes themselves (Remix loads each route's own chunk)
    if (browser)
      for (const route of ids.filter((m) => STOREFRONT_ROUTES.test(m))) queue.push(...(meta.getModuleInfo(route)?.importedIds ?? []));
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (gathered.has(next) || (ROUTE_MODULE.test(next) && !SHELL_ROOTS.test(next))) continue;
      gathered.add(next);
      queue.push(...(meta.getModuleInfo(next)?.importedIds ?? []));
    }
    shellModules = gathered;
  }
  return shellModules.has(id) && !/\.css(\?|$)/.test(id) ? "shell" : undefined;
}

export default defineConfig({
  server: { port: 3000 },
  plugins: [
    // Each build (the browser's, then the server's) gathers its own shell.
    { name: "shell-chunk", buildStart: () => void (shellModules = null) },
    tailwindcss(),
    !process.env.VITEST &&
      remix({
        ignoredRouteFiles: ["**/.*", "**/*.server.*", "**/*.test.*"],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
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
    rollupOptions: { output: { manualChunks: shellChunk } },
  },
  test: {
    include: ["app/**/*.test.ts", "db/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/support/vitest-setup.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 20000,
  },
});
