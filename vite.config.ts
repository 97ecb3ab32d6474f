/// <reference types="vitest/config" />
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  server: { port: 3000 },
  plugins: [
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
  ],
  build: { target: "es2022" },
  test: {
    include: ["app/**/*.test.ts", "db/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/support/vitest-setup.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 20000,
  },
});
