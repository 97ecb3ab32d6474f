// The cross-server tests (npm run test:cluster, scripts/test-cluster.sh): each file starts its own
// cluster (scripts/cluster.mjs: two production servers and nginx over a fresh PostgreSQL database),
// so the files run one after another. Neither the default Vitest run (vite.config.ts's include) nor
// test:pg (tests/integration) picks these files up.
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: path.resolve(import.meta.dirname, "../.."),
  test: {
    include: ["tests/cluster/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
