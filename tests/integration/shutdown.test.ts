// The production server's start and stop (server/index.ts, server/shutdown.ts): on SIGTERM the request in
// flight finishes (its answer closes the connection), new connections are refused and the process
// exits 0; past SHUTDOWN_TIMEOUT_MS what still runs is cut off. A reason not to start (a bad
// variable, migrations newer than the code) is one clear line and exit code 1, no stack.
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import type { TestContext } from "vitest";
import { db, isPostgresUrl } from "~/lib/db.server";
import { env, parseEnv } from "~/lib/env.server";
import { migrateToLatest } from "~/lib/migrate.server";
import { acceptCode, readSecrets, secretFingerprint } from "~/lib/secrets.server";
import { freePort, refusedStart, root, serverBuild, startProductionServer } from "../support/production-server";
import type { ProductionServer } from "../support/production-server";

// npm test runs this file once the build is done (SHOP_AFTER_BUILD=1, scripts/test.sh), and then
// it must run; a bare `vitest run` without a build skips it.
const mustRun = process.env.SHOP_AFTER_BUILD === "1";

let running: ProductionServer | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

/** A build removed under a run that need not have one (a build running beside the tests) skips the test. */
function skipWithoutBuild(ctx: TestContext) {
  if (mustRun) throw new Error("the production build is missing: run `npx remix vite:build` first");
  ctx.skip();
}

async function start(ctx: TestContext, variables: Record<string, string> = {}): Promise<ProductionServer> {
  running = await startProductionServer(variables);
  if (!running) skipWithoutBuild(ctx);
  return running!;
}

async function refusal(ctx: TestContext, variables: Record<string, string> = {}) {
  const result = await refusedStart(variables);
  if (!fs.existsSync(serverBuild)) skipWithoutBuild(ctx);
  return result;
}

async function until(check: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether a new connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

/** A kept-alive connection that has had one answer, then a POST whose body has only begun to arrive. */
async function slowRequest(server: ProductionServer) {
  const socket = net.connect(server.port, "127.0.0.1");
  await once(socket, "connect");
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
  const closed = once(socket, "close");
  const host = `127.0.0.1:${server.port}`;
  socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  await until(() => /^HTTP\/1\.1 200 [\s\S]*\r\n\r\n/.test(received) && received.endsWith("\r\n0\r\n\r\n"));
  expect(received).toMatch(/\r\nConnection: keep-alive\r\n/i);
  received = "";
  const body = JSON.stringify({ email: "not an email address" });
  socket.write(
    `POST /api/stuff/addSubsEmail HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 8)}`,
  );
  // The request reaches the app, which waits for the rest of its body.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { received: () => received, closed, finish: () => socket.write(body.slice(8)) };
}

/** `node scripts/start.mjs [which]` as npm runs it, with `variables` over the tests' environment; its output collected. */
async function startScript(which: "server" | "worker", variables: Record<string, string> = {}) {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, ["scripts/start.mjs", which], {
    cwd: root,
    env: { ...process.env, ...variables },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, exited: once(child, "exit") as Promise<[number | null]> };
}

describe.skipIf(!mustRun && !fs.existsSync(serverBuild))("the production server's stop and start", () => {
  it("SIGTERM: new connections are refused at once, the request in flight completes with Connection: close, exit 0", async (ctx) => {
    const server = await start(ctx);
    const request = await slowRequest(server);
    server.child.kill("SIGTERM");
    await until(() => refused(server.port));
    expect(request.received()).toBe("");
    request.finish();
    await request.closed;
    expect(request.received()).toMatch(/^HTTP\/1\.1 400 /);
    expect(request.received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain("[shop] SIGTERM: no new connections; finishing the requests in flight (at most 10000 ms)");
    expect(server.output()).toContain("[shop] stopped");
  });

  it("a request still running after SHUTDOWN_TIMEOUT_MS is cut off, and the process still exits 0", async (ctx) => {
    const server = await start(ctx, { SHUTDOWN_TIMEOUT_MS: "400" });
    const request = await slowRequest(server);
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    await request.closed;
    expect(request.received()).toBe("");
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(400);
    expect(server.output()).toContain("[shop] requests still running after 400 ms: their connections are closed");
  });

  it("SHUTDOWN_DELAY_MS: on SIGTERM /readyz answers 503 at once while requests are still served, then the listener closes", async (ctx) => {
    const server = await start(ctx, { SHUTDOWN_DELAY_MS: "1500" });
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    await until(async () => (await fetch(`${base}/readyz`)).status === 503);
    const body = (await (await fetch(`${base}/readyz`)).json()) as { status: string };
    expect(body).toEqual({ status: "shutting-down" });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(Date.now() - signalled).toBeLessThan(1500);
    await until(() => refused(server.port), 5000);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1500);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain("[shop] SIGTERM: not ready (GET /readyz 503); still serving for 1500 ms");
  });

  it("npm run worker: a reason not to start is one line, exit code 1, no stack", async (ctx) => {
    if (!fs.existsSync(serverBuild)) skipWithoutBuild(ctx);
    const worker = await startScript("worker", { TEST_GATEWAY_SECRET: "not-long-enough-secret" });
    const [code] = await worker.exited;
    expect(code).toBe(1);
    expect(worker.output().trim()).toBe(
      "[worker] not started: Invalid environment: TEST_GATEWAY_SECRET: TEST_GATEWAY_SECRET must be at least 32 characters",
    );
  });

  it("an idle keep-alive connection outlives Node's default 5 s: a request after 6 s idle reuses it and is answered", async (ctx) => {
    const server = await start(ctx);
    const http = await import("node:http");
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const request = http.get(`${server.base}/healthz`, { agent }, (answer) => {
          answer.resume();
          answer.on("end", () => resolve({ status: answer.statusCode ?? 0, reused: request.reusedSocket }));
        });
        request.on("error", reject);
      });
    try {
      expect(await get()).toEqual({ status: 200, reused: false });
      await new Promise((resolve) => setTimeout(resolve, 6000));
      expect(await get()).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it("npm run worker with METRICS_PORT: its own GET /metrics, by the servers' rules and trusting no proxy; nothing else", async (ctx) => {
    if (!fs.existsSync(serverBuild)) skipWithoutBuild(ctx);
    const port = await freePort();
    const token = "worker-metrics-token-0123456789abcdef";
    const { child, output, exited } = await startScript("worker", { METRICS_PORT: String(port), METRICS_TOKEN: token, HOST: "127.0.0.1" });
    try {
      await until(() => output().includes(`[worker] metrics on port ${port}`), 30_000);
      const base = `http://127.0.0.1:${port}`;
      const own = await fetch(`${base}/metrics`);
      expect(own.status).toBe(200);
      const text = await own.text();
      expect(text).toMatch(/^# TYPE shop_mail_send_failures_total counter$/m);
      expect(text).toMatch(/^# TYPE process_cpu_user_seconds_total counter$/m);
      // It trusts no proxy: a relayed request is the relay's, and needs the token.
      const relayed = await fetch(`${base}/metrics`, { headers: { "X-Forwarded-For": "203.0.113.9" } });
      expect(relayed.status).toBe(403);
      await relayed.text();
      const withToken = await fetch(`${base}/metrics`, { headers: { "X-Forwarded-For": "203.0.113.9", Authorization: `Bearer ${token}` } });
      expect(withToken.status).toBe(200);
      await withToken.text();
      const other = await fetch(`${base}/healthz`);
      expect(other.status).toBe(404);
      await other.text();
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = await exited;
    expect(code).toBe(0);
    expect(await refused(port)).toBe(true);
  });

  it("npm start: the web server runs with a 64 MB young generation (scripts/build-server.mjs), and serves", async (ctx) => {
    if (!fs.existsSync(serverBuild)) skipWithoutBuild(ctx);
    const port = await freePort();
    const { child, output, exited } = await startScript("server", { PORT: String(port), HOST: "127.0.0.1", SEED: "none" });
    try {
      await until(() => output().includes(`[shop] http://127.0.0.1:${port}`), 30_000);
      // The server is start.mjs's one child; Linux lists a process's children and arguments in /proc.
      const [server] = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(" ");
      const args = fs.readFileSync(`/proc/${server}/cmdline`, "utf8").split("\0");
      expect(args).toContain("--max-semi-space-size=64");
      expect(args.at(-2)).toMatch(/build\/server\.js$/);
      const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(answer.status).toBe(200);
      await answer.text();
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = await exited;
    expect(code).toBe(0);
  });

  it("a bad variable: one line naming it (never its value), exit code 1, no stack", async (ctx) => {
    const { code, output } = await refusal(ctx, { TEST_GATEWAY_SECRET: "not-long-enough-secret" });
    expect(code).toBe(1);
    expect(output.trim()).toBe(
      "[shop] not started: Invalid environment: TEST_GATEWAY_SECRET: TEST_GATEWAY_SECRET must be at least 32 characters",
    );
  });

  it("a database with migrations newer than the code: refused, naming them, exit code 1, no stack", async (ctx) => {
    await migrateToLatest(db);
    const future = "2099-01-01-9999-from-a-newer-version";
    await sql`insert into kysely_migration (name, timestamp) values (${future}, ${new Date().toISOString()})`.execute(db);
    try {
      const { code, output } = await refusal(ctx);
      expect(code).toBe(1);
      expect(output).toMatch(new RegExp(`^\\[shop\\] not started: the database has migrations this version does not know: ${future}; `));
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      await sql`delete from kysely_migration where name = ${future}`.execute(db);
    }
  });

  it.skipIf(!isPostgresUrl(env.DATABASE_URL))(
    "PostgreSQL: a SESSION_SECRET the other servers do not use: refused, naming it, exit 1",
    async (ctx) => {
      await migrateToLatest(db);
      const [theirs, mine] = ["the-servers-session-key-0123", "another-session-key-45678901"];
      // What another server started with SESSION_SECRET=theirs recorded.
      const code = acceptCode(await secretFingerprint("session", theirs));
      await readSecrets(db, parseEnv({ ...process.env, SESSION_SECRET: theirs, SECRETS_ACCEPT_NEW: code }));
      try {
        const { code, output } = await refusal(ctx, { SESSION_SECRET: mine });
        expect(code).toBe(1);
        expect(output).toMatch(/^\[shop\] not started: SESSION_SECRET differs from the one the other servers on this database use /);
        expect(output).not.toContain(mine);
        expect(output).not.toMatch(/\n\s+at /);
      } finally {
        await db.deleteFrom("sharedSecrets").where("name", "=", "session").execute();
      }
    },
  );
});
