// Starts the production server (server/index.ts, compiled, over build/) as `npm start` does, over the test
// file's own database, data and mail folders, and reads its output. For the files that run after
// the build (scripts/test.sh's AFTER_BUILD).
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { entryArgs } from "../../scripts/build-server.mjs";

export const root = path.resolve(__dirname, "../..");
export const serverBuild = path.join(root, "build", "server", "index.js");

export interface ProductionServer {
  port: number;
  base: string;
  child: ChildProcess;
  output: () => string;
  /** the exit code once the process has ended (null when a signal ended it) */
  exited: Promise<number | null>;
  /** SIGTERM, and SIGKILL after 5 s */
  stop: () => Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function spawnServer(port: number, variables: Record<string, string>) {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: process.env.DATA_DIR,
    MAIL_DIR: process.env.MAIL_DIR,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SEED: "none",
    TRUST_PROXY: "0",
    ...variables,
  };
  const child = spawn(process.execPath, entryArgs(), { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** `read()` once it stops throwing (a mail the worker has yet to send, a log line yet to be written), at most `ms`. */
export async function waitFor<T>(read: () => Promise<T>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** One line of the production server's log (a JSON object a line, app/lib/log.server.ts). */
export interface LogLine {
  level: string;
  msg: string;
  requestId?: string;
  [field: string]: unknown;
}

/** The JSON lines of a server's output; lines that are not JSON (none the server writes itself) are left out. */
export function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The messages of a server's log lines, one a line, for a multi-line pattern (`/^GET \/x 200 /m`). */
export function logMessages(output: string): string {
  return logLines(output)
    .map((line) => line.msg)
    .join("\n");
}

/** Starts the server and waits until it listens; null when the build went missing under it (a build running beside the tests). */
export async function startProductionServer(variables: Record<string, string> = {}): Promise<ProductionServer | null> {
  const port = await freePort();
  const { child, output, exited } = spawnServer(port, variables);
  const listening = await new Promise<boolean>((resolve) => {
    const timer = setInterval(() => {
      if (output().includes(`[shop] http://127.0.0.1:${port}`)) {
        clearInterval(timer);
        resolve(true);
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      resolve(false);
    });
  });
  if (!listening) {
    if (!fs.existsSync(serverBuild)) return null;
    throw new Error(`the server did not start:\n${output()}`);
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(killer);
    }
  };
  return { port, base: `http://127.0.0.1:${port}`, child, output, exited, stop };
}

/** Runs a server that is expected not to start: its exit code and output (one that starts after all is stopped). */
export async function refusedStart(variables: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const { child, output, exited } = spawnServer(await freePort(), variables);
  const watch = setInterval(() => output().includes("[shop] http://") && child.kill("SIGTERM"), 50);
  const code = await exited;
  clearInterval(watch);
  return { code, output: output() };
}
