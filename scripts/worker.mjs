// `npm run worker`: the mail outbox's worker and the hourly housekeeping alone, without serving
// HTTP (issue 15, item 2). It imports the server build, as scripts/server.mjs does (the import boots
// the app: environment check, migrations, secrets), and runs the worker the build's entry exports.
// Start the app servers with MAIL_WORKER=0 to leave the sending to this process, or keep their own
// workers too: every worker claims disjoint rows (app/lib/outbox.server.ts). SIGTERM/SIGINT: the pass
// under way finishes, then the database closes.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const buildPath = path.join(root, "build", "server", "index.js");
if (!fs.existsSync(buildPath)) {
  console.error("No build: run `npm run build` first.");
  process.exit(1);
}
process.env.NODE_ENV ??= "production";
// This process is the worker, whatever the servers' setting.
process.env.MAIL_WORKER = "1";

let build;
try {
  build = await import(pathToFileURL(buildPath).href);
} catch (error) {
  // A reason not to start (a bad variable, a secret the servers do not share, newer migrations): one line, as scripts/server.mjs.
  if (error?.name !== "StartupError") throw error;
  console.error(`[worker] not started: ${error.message}`);
  process.exit(1);
}
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
