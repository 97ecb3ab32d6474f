/// <reference types="vitest/config" />
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import type { ManualChunkMeta } from "rollup";
import { fileURLToPath } from "node:url";
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
 * of some twenty small files (ADR 0016). Route modules, and what only some routes import, keep
 * chunks of their own.
 */
let shellModules: Set<string> | null = null;
function shellChunk(id: string, meta: ManualChunkMeta): string | undefined {
  if (!shellModules) {
    shellModules = new Set();
    const ids = [...meta.getModuleIds()];
    // The server build has no browser entry: nothing to gather there.
    const queue = ids.some((m) => /\/app\/entry\.client\.tsx$/.test(m))
      ? ids.filter((m) => /\/app\/(root|entry\.client)\.tsx(\?|$)/.test(m))
      : [];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (shellModules.has(next)) continue;
      shellModules.add(next);
      queue.push(...(meta.getModuleInfo(next)?.importedIds ?? []));
    }
  }
  return shellModules.has(id) && !/\.css(\?|$)/.test(id) ? "shell" : undefined;
}

/** react and react-dom as the browser build resolves them: preact/compat, with a hydrateRoot that takes the document. */
const PREACT_ALIASES = [
  { find: /^react-dom\/client$/, replacement: fileURLToPath(new URL("./app/browser/react-dom-client.ts", import.meta.url)) },
  { find: /^react\/jsx(-dev)?-runtime$/, replacement: "preact/jsx-runtime" },
  { find: /^react(-dom)?$/, replacement: "preact/compat" },
];

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
    // The browser build runs on Preact's React compatibility layer (ADR 0016: 36 KiB gzip less on
    // every page than react-dom); the server renders with React 18, and `vite dev` keeps React.
    {
      name: "browser-preact",
      config: (config, { command }) => (command === "build" && !config.build?.ssr ? { resolve: { alias: PREACT_ALIASES } } : {}),
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
