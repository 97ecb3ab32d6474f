// npm start: build if no build exists, then serve in production mode. The server itself
// migrates the database and seeds the demo shop on a database's first start (only then).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const serverBuild = path.join(root, "build", "server", "index.js");

if (!fs.existsSync(serverBuild)) {
  console.info("No build found: building once…");
  const result = spawnSync(bin("remix"), ["vite:build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const env = { ...process.env, NODE_ENV: "production" };
const server = spawn(process.execPath, [path.join(root, "scripts", "server.mjs")], { cwd: root, stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
