// npm start: build if no build exists, then serve in production mode. The server itself
// migrates the database and seeds the demo shop on a database's first start (only then).
// `node scripts/start.mjs worker` (npm run worker) runs the mail outbox's worker instead.
// Both are server/ compiled into build/ (scripts/build-server.mjs: again when a source changed).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { entryArgs } from "./build-server.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const remixBuild = path.join(root, "build", "server", "index.js");
const which = process.argv[2] ?? "server";

if (!fs.existsSync(remixBuild)) {
  console.info("No build found: building once…");
  const result = spawnSync(bin("remix"), ["vite:build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The server always in production mode; the worker too unless NODE_ENV says otherwise.
const env = which === "server" ? { ...process.env, NODE_ENV: "production" } : process.env;
const child = spawn(process.execPath, entryArgs(which), { cwd: root, stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
