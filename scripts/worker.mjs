// `npm run worker`: the mail outbox's worker and the hourly housekeeping alone, without serving
// HTTP (issue 15, item 2). It imports the server build, as scripts/server.mjs does (the import boots
// the app: environment check, migrations, secrets), and runs the worker the build's entry exports.
// Start the app servers with MAIL_WORKER=0 to leave the sending to this process, or keep their own
// workers too: every worker claims disjoint rows (app/lib/outbox.server.ts). SIGTERM/SIGINT: the pass
// under way finishes, then the database closes.
import fs from "node:fs";
import path from "node:path";
import { importBuild } from "./import-build.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const buildPath = path.join(root, "build", "server", "index.js");
if (!fs.existsSync(buildPath)) {
  console.error("No build: run `npm run build` first.");
  process.exit(1);
}
process.env.NODE_ENV ??= "production";
// This process is the worker, whatever the servers' setting.
process.env.MAIL_WORKER = "1";

// A reason not to start is one line and exit 1, as for scripts/server.mjs.
const build = await importBuild(buildPath, "worker");
const entry = build.entry.module;
const worker = entry.runWorker();
console.info(`[worker] ${worker.id}: sending the mail outbox and running housekeeping; SIGTERM or Ctrl-C stops it`);

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.info(`[worker] ${signal}: finishing the pass under way`);
  await entry.shutdown();
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => void stop(signal));
