// npm run cluster: the shop on two app servers behind nginx over one PostgreSQL, all on loopback
// ports, as in production (ADR 0020): a throwaway PostgreSQL 15 cluster (or, with
// TEST_PG_URL, a fresh database on that server), N production servers (server/index.ts, compiled, over
// build/), each with a DATA_DIR of its own (nothing may live on one server's disk) and one shared
// MAIL_DIR (the mail transport's stand-in, as an SMTP relay would be), and nginx in front, round-robin
// without stickiness. Prints the URL; Ctrl-C (or SIGTERM) stops the servers gracefully, then nginx and
// PostgreSQL, and removes the temporary folder.
//
//   node scripts/cluster.mjs [--servers 2] [--port PORT] [--mail-dir DIR] [--keep]
//
// Needs root for the PostgreSQL cluster (unless TEST_PG_URL names one) and to install Debian's
// postgresql-15 and nginx when missing. Builds first when build/ is missing or older than app/.
// startCluster() is the same for tests (tests/cluster, playwright.config.ts with E2E_TARGET=cluster).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { tsImport } from "tsx/esm/api";
import { entryArgs } from "./build-server.mjs";
import { createPgDatabase, ensureDebianPackage, freePort, startPostgres } from "./throwaway.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SERVER_BUILD = path.join(root, "build", "server", "index.js");
const NGINX = process.env.NGINX ?? "/usr/sbin/nginx";
// The largest body the app takes, from the app's own rules (TypeScript, read through tsx).
const { MAX_ADMIN_BODY_BYTES } = await tsImport("../app/lib/request-rules.ts", import.meta.url);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @typedef {object} ClusterServer
 * @property {string} name "a", "b", …
 * @property {string} url http://127.0.0.1:PORT, the server itself (not through nginx)
 * @property {number} port
 * @property {number | null} pid while it runs
 * @property {string} dataDir its own DATA_DIR
 * @property {string} logFile its standard output and error
 * @property {() => Promise<void>} start starts it again (same port and environment) and waits until it is ready
 * @property {() => Promise<void>} stop SIGTERM, and waits for it to exit (SIGKILL after 20 s)
 * @property {() => Promise<void>} kill SIGKILL, and waits for it to be gone
 */

/**
 * @typedef {object} Cluster
 * @property {string} url nginx, the shop's address
 * @property {ClusterServer[]} servers
 * @property {string} databaseUrl the shop's database
 * @property {string} mailDir the mails every server writes (the mail transport's stand-in)
 * @property {string} dir the temporary folder (data folders, logs, nginx's configuration and access log)
 * @property {string} nginxLog nginx's access log: one line per request, `status upstream_addr request`
 * @property {() => Promise<void>} stop stops everything and removes the temporary folder (unless kept)
 */

/** Whether build/ is missing or older than a file under app/ (or the build's configuration). */
function buildIsStale() {
  if (!fs.existsSync(SERVER_BUILD)) return true;
  const built = fs.statSync(SERVER_BUILD).mtimeMs;
  const newer = (file) => fs.statSync(file).mtimeMs > built;
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full) : !/\.test\.tsx?$/.test(entry.name) && newer(full);
    });
  return walk(path.join(root, "app")) || ["vite.config.ts", "package-lock.json"].some((f) => newer(path.join(root, f)));
}

/** Builds once when build/ is missing or stale (npm test's build is reused). */
export function ensureBuild(log = console.info) {
  if (!buildIsStale()) return;
  log("Building (build/ is missing or older than app/)…");
  const result = spawnSync(path.join(root, "node_modules", ".bin", "remix"), ["vite:build"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  // Its many warnings are shown only when it fails.
  if (result.status !== 0) throw new Error(`npx remix vite:build failed:\n${result.stdout}\n${result.stderr}`);
}

/** One GET on its own connection: its status, or 0 when nothing answered. */
function probe(url, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", () => resolve(0));
    request.on("timeout", () => request.destroy());
  });
}

/** Waits until `base` is ready for traffic: /readyz answers 200 (or, on a build without it, /healthz). */
async function waitReady(base, isGone, describe, timeoutMs = 120_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (isGone()) throw new Error(`${describe()} exited while starting`);
    const ready = await probe(`${base}/readyz`);
    if (ready === 200 || (ready === 404 && (await probe(`${base}/healthz`)) === 200)) return;
    await sleep(100);
  }
  throw new Error(`${describe()} was not ready within ${timeoutMs / 1000} s`);
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/**
 * One app server: server/index.ts (compiled) over build/, with its own DATA_DIR and log.
 * @returns {ClusterServer}
 */
function appServer(name, port, env, dir) {
  const dataDir = path.join(dir, `data-${name}`);
  const logFile = path.join(dir, `server-${name}.log`);
  fs.mkdirSync(dataDir, { recursive: true });
  let child = null;
  let exited = Promise.resolve();
  const running = () => child !== null && child.exitCode === null && child.signalCode === null;
  const server = {
    name,
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    logFile,
    get pid() {
      return running() ? (child?.pid ?? null) : null;
    },
    async start() {
      if (running()) return;
      const log = fs.openSync(logFile, "a");
      child = spawn(process.execPath, entryArgs(), {
        cwd: root,
        env: { ...env, PORT: String(port), DATA_DIR: dataDir },
        stdio: ["ignore", log, log],
      });
      fs.closeSync(log);
      const current = child;
      exited = new Promise((resolve) => current.once("exit", () => resolve(undefined)));
      await waitReady(
        server.url,
        () => !running(),
        () => `app server ${name} (${server.url}; its log ${logFile}:\n${tail(logFile)})`,
      );
    },
    async stop() {
      if (!running()) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child?.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(killer);
    },
    async kill() {
      if (!running()) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
  return server;
}

/** nginx's configuration: round-robin over the servers, no stickiness, the client's address and the Host passed on. */
function nginxConfig({ dir, port, servers, asRoot, forwardedFor }) {
  const temp = (name) => path.join(dir, "nginx", name);
  // Large enough for every body the app takes (its own door answers a bigger one with its 413).
  const bodyLimitMb = Math.ceil(MAX_ADMIN_BODY_BYTES / (1024 * 1024)) + 1;
  return `# Generated by scripts/cluster.mjs: the load balancer in front of the app servers.
${asRoot ? "user nobody nogroup;\n" : ""}worker_processes 1;
daemon off;
pid ${temp("nginx.pid")};
error_log ${path.join(dir, "nginx-error.log")} warn;
events { worker_connections 1024; }
http {
  # Method and path only, never the query (reset tokens, email addresses), as the app's own access log.
  log_format upstream '$status $upstream_addr "$request_method $uri" $http_x_forwarded_for';
  access_log ${path.join(dir, "nginx-access.log")} upstream;
  client_body_temp_path ${temp("body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  client_max_body_size ${bodyLimitMb}m;
  # Round-robin (nginx's default): consecutive requests go to different servers. A server that
  # refuses a connection is skipped for 5 s, and the request goes to the next one.
  upstream shop {
${servers.map((s) => `    server 127.0.0.1:${s.port} max_fails=3 fail_timeout=5s;`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://shop;
      # HTTP/1.1 to the app: its answers are chunked or carry a Content-Length, so one cut short by a
      # server that died mid-answer is seen as broken and the client's connection is broken too. Over
      # nginx's default HTTP/1.0 the connection's close ends the body: a server killed after its headers
      # would reach the client as a whole "201 Created" with an empty body, and the client never retries.
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      # Connection errors and timeouts go to the next server; a request already sent (a POST that
      # may have been applied) is never sent twice: nginx retries those only when nothing was sent.
      # A slow answer (a timeout) is not retried: one slow request must not run on every server.
      proxy_next_upstream error;
      proxy_next_upstream_tries 2;
      # A request nginx has taken is carried to the app even when the browser leaves the page
      # meanwhile (a click that adds to the cart, then a navigation): as the app itself would have
      # finished it, had the browser been connected to it directly.
      proxy_ignore_client_abort on;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      # The app checks a post's Origin against the Host the browser used (nginx's host:port).
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
      ${
        forwardedFor === "append"
          ? `# Behind a client that names the visitor itself (the browser tests: each test stands for its own
      # address, as a CDN in front would name its visitors): appends the connecting client, and with
      # TRUST_PROXY=loopback the app walks back past every loopback hop to the address before them.
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;`
          : `# nginx is the edge: the connecting client's address replaces whatever X-Forwarded-For it sent, so no
      # client can name another address to get round the rate limits.
      proxy_set_header X-Forwarded-For $remote_addr;`
      }
    }
  }
}
`;
}

/**
 * nginx on `port` in front of `servers` (each `{ port }`), its configuration, temporary folders and
 * logs under `dir`; resolves once it answers. `stop` ends it gracefully (SIGKILL after 5 s).
 * @param {{ dir: string, port: number, servers: { port: number }[], forwardedFor: "append" | "replace" }} options
 */
export async function startNginx({ dir, port, servers, forwardedFor }) {
  ensureDebianPackage(NGINX, "nginx");
  const asRoot = process.getuid?.() === 0;
  for (const name of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    fs.mkdirSync(path.join(dir, "nginx", name), { recursive: true });
    if (asRoot) fs.chownSync(path.join(dir, "nginx", name), Number(execFileSync("id", ["-u", "nobody"]).toString().trim()), -1);
  }
  const configFile = path.join(dir, "nginx", "nginx.conf");
  const errorLog = path.join(dir, "nginx-error.log");
  fs.writeFileSync(configFile, nginxConfig({ dir, port, servers, asRoot, forwardedFor }));
  const nginxOut = fs.openSync(errorLog, "a");
  const nginx = spawn(NGINX, ["-p", path.join(dir, "nginx"), "-c", configFile, "-e", errorLog], {
    stdio: ["ignore", nginxOut, nginxOut],
  });
  fs.closeSync(nginxOut);
  const nginxExited = new Promise((resolve) => nginx.once("exit", () => resolve(undefined)));
  const gone = () => nginx.exitCode !== null || nginx.signalCode !== null;
  const stop = async () => {
    if (gone()) return;
    nginx.kill("SIGQUIT");
    const killer = setTimeout(() => nginx.kill("SIGKILL"), 5000);
    await nginxExited;
    clearTimeout(killer);
  };
  const url = `http://localhost:${port}`;
  try {
    await waitReady(url, gone, () => `nginx (${url}; ${tail(errorLog)})`, 20_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/**
 * Starts a cluster: PostgreSQL (or a fresh database on TEST_PG_URL's server), `servers` app servers
 * started together (they migrate and seed under the app's own lock), and nginx in front.
 * @param {object} [options]
 * @param {number} [options.servers] how many app servers (default 2)
 * @param {number} [options.port] nginx's port (default: a free one)
 * @param {string} [options.mailDir] the shared mail folder (default: in the temporary folder)
 * @param {Record<string, string>} [options.env] variables for every server, over the process's own
 * @param {string} [options.pgAdminUrl] an admin connection to an existing PostgreSQL (default TEST_PG_URL; else a throwaway cluster)
 * @param {boolean} [options.keep] keep the temporary folder (and the database) afterwards
 * @param {"replace" | "append"} [options.forwardedFor] what nginx does with a client's X-Forwarded-For: replace it
 * with the client's address (the default: nginx is the edge), or append to it (the browser tests, each test naming its
 * own address as a CDN in front would)
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<Cluster>}
 */
export async function startCluster(options = {}) {
  const log = options.log ?? ((line) => console.info(line));
  const count = options.servers ?? 2;
  ensureBuild(log);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-cluster-"));
  // nginx's workers (nobody, when started as root) pass through it to their temporary folders.
  fs.chmodSync(dir, 0o711);
  const cleanups = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch((error) => log(`cluster cleanup: ${error?.message ?? error}`));
    cleanups.length = 0;
    if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const adminUrl = options.pgAdminUrl ?? process.env.TEST_PG_URL;
    let pgAdmin = adminUrl;
    if (!pgAdmin) {
      const pgCluster = await startPostgres();
      cleanups.push(async () => pgCluster.stop({ keep: options.keep }));
      if (options.keep) log(`PostgreSQL's data (kept): ${pgCluster.dir}`);
      pgAdmin = pgCluster.adminUrl;
    }
    const database = await createPgDatabase(pgAdmin, "shop_cluster");
    if (adminUrl && !options.keep) cleanups.push(() => database.drop());

    const port = options.port ?? (await freePort());
    const url = `http://localhost:${port}`;
    const mailDir = options.mailDir ?? path.join(dir, "mail");
    fs.mkdirSync(mailDir, { recursive: true });
    const env = {
      ...process.env,
      ...options.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      DATABASE_URL: database.url,
      MAIL_DIR: mailDir,
      PUBLIC_URL: url,
      // nginx connects from loopback and appends the client's address to X-Forwarded-For; the
      // app walks back past every loopback hop to the first address that is not one.
      TRUST_PROXY: "loopback",
    };
    const ports = [];
    while (ports.length < count) {
      const candidate = await freePort();
      if (candidate !== port && !ports.includes(candidate)) ports.push(candidate);
    }
    const servers = ports.map((p, i) => appServer(String.fromCharCode(97 + i), p, env, dir));
    cleanups.push(async () => void (await Promise.all(servers.map((s) => s.stop()))));
    // Together, as a deployment starts them: the first migration and seeding are one server's.
    await Promise.all(servers.map((s) => s.start()));

    const nginx = await startNginx({ dir, port, servers, forwardedFor: options.forwardedFor ?? "replace" });
    cleanups.push(nginx.stop);
    return {
      url,
      servers,
      databaseUrl: database.url,
      mailDir,
      dir,
      nginxLog: path.join(dir, "nginx-access.log"),
      stop: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

// ---- the command line ------------------------------------------------------------------

async function main() {
  const { values } = parseArgs({
    options: {
      servers: { type: "string", default: "2" },
      port: { type: "string" },
      "mail-dir": { type: "string" },
      keep: { type: "boolean", default: false },
      "forwarded-for": { type: "string", default: "replace" },
    },
  });
  const servers = Number(values.servers);
  if (!Number.isInteger(servers) || servers < 1 || servers > 16) throw new Error("--servers must be a whole number from 1 to 16");
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new Error("--port must be a TCP port");
  const env = {};
  // Production has no default admin password: make one for this run, and say it.
  if (!process.env.ADMIN_PASSWORD) env.ADMIN_PASSWORD = crypto.randomBytes(12).toString("base64url");
  const started = Date.now();
  const forwardedFor = values["forwarded-for"];
  if (forwardedFor !== "replace" && forwardedFor !== "append") throw new Error("--forwarded-for must be replace or append");
  const cluster = await startCluster({ servers, port, mailDir: values["mail-dir"], keep: values.keep, forwardedFor, env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.info("Stopping the cluster…");
    await cluster.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  console.info(
    [
      `The shop: ${cluster.url} (nginx, round-robin over ${servers} app server${servers === 1 ? "" : "s"}; ready in ${seconds} s)`,
      ...cluster.servers.map((s) => `  server ${s.name}: ${s.url} (pid ${s.pid}, DATA_DIR ${s.dataDir}, log ${s.logFile})`),
      `  database: ${cluster.databaseUrl}`,
      `  mails: ${cluster.mailDir}`,
      env.ADMIN_PASSWORD ? `  Admin Access password for this run: ${env.ADMIN_PASSWORD}` : "  Admin Access password: ADMIN_PASSWORD",
      "Ctrl-C stops everything.",
    ].join("\n"),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
