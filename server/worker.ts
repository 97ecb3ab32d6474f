// `npm run worker`: the mail outbox's worker and the hourly housekeeping alone, without serving
// HTTP. It imports the Remix server build, as server/index.ts does (the import boots the app:
// environment check, migrations, secrets), and runs the worker the build's entry exports. Start
// the app servers with MAIL_WORKER=0 to leave the sending to this process, or keep their own
// workers too: every worker claims disjoint rows (app/lib/outbox.server.ts). SIGTERM/SIGINT: the
// pass under way finishes, then the database closes. With METRICS_PORT, it answers GET /metrics
// there (HOST's address, or every address), for METRICS_TOKEN or METRICS_ALLOW's addresses as the
// servers do (server/metrics.ts), so Prometheus sees this process's sends and failures too; it
// trusts no proxy, and answers nothing else.
import fs from "node:fs";
import type { Server } from "node:http";
import express from "express";
import { metricsAllowList } from "../app/lib/metrics-access";
import { importBuild, remixBuildPath } from "./import-build";
import { metricsEndpoint } from "./metrics";

if (!fs.existsSync(remixBuildPath)) {
  console.error("No build: run `npm run build` first.");
  process.exit(1);
}
process.env.NODE_ENV ??= "production";
// This process is the worker, whatever the servers' setting.
process.env.MAIL_WORKER = "1";

// A reason not to start is one line and exit 1, as for the server.
const build = await importBuild("worker");
const entry = build.entry.module;
const worker = entry.runWorker();
console.info(`[worker] ${worker.id}: sending the mail outbox and running housekeeping; SIGTERM or Ctrl-C stops it`);

let metricsServer: Server | null = null;
const metricsPort = process.env.METRICS_PORT?.trim() ? Number(process.env.METRICS_PORT) : null;
if (metricsPort !== null) {
  const app = express();
  app.disable("x-powered-by");
  app.get(
    "/metrics",
    metricsEndpoint({
      token: process.env.METRICS_TOKEN?.trim() || null,
      allow: metricsAllowList(process.env.METRICS_ALLOW)!,
      trustProxy: () => false,
      read: entry.metricsText,
    }),
  );
  app.use((_req, res) => void res.status(404).type("text/plain").send("Not Found"));
  const host = process.env.HOST?.trim();
  const onListen = () => console.info(`[worker] metrics on port ${metricsPort}: GET /metrics`);
  metricsServer = host ? app.listen(metricsPort, host, onListen) : app.listen(metricsPort, onListen);
}

let stopping = false;
async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  console.info(`[worker] ${signal}: finishing the pass under way`);
  metricsServer?.close();
  await entry.shutdown();
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void stop(signal));
