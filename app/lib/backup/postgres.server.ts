// PostgreSQL's half of a backup (ADR 0029): pg_dump's custom format (one consistent snapshot,
// compressed, the images' rows included), and the way back through pg_restore and psql in one
// transaction. The password travels in PGPASSWORD, never on a command line that `ps` shows.
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import pg from "pg";

/** The connection a PostgreSQL program is given: the URL without its password, which goes in the environment. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Text of a program's error output fit for a log line: its first lines, without connection strings' credentials. */
function errorText(stderr: string): string {
  return stderr
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, 3)
    .join(" ")
    .replace(/\/\/[^/@\s]*@/g, "//[credentials]@")
    .slice(0, 500);
}

interface Run {
  /** resolves when the program exits 0; rejects with its error output otherwise */
  done: Promise<void>;
  stdout: Readable;
  stdin: NodeJS.WritableStream;
  kill: () => void;
}

function run(program: string, args: string[], env: NodeJS.ProcessEnv, stdin: "ignore" | "pipe" = "ignore"): Run {
  const child = spawn(program, args, { env, stdio: [stdin, "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString();
  });
  const done = new Promise<void>((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === "ENOENT"
            ? `${program} was not found: install PostgreSQL's client programs of the server's major version ` +
                "(Debian: apt-get install postgresql-client-15)"
            : `${program} could not start: ${error.message}`,
        ),
      ),
    );
    child.once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${program} failed (${signal ?? `exit ${code}`}): ${errorText(stderr) || "no message"}`)),
    );
  });
  // A program that stopped reading (it failed) must not crash this process: `done` reports why.
  child.stdin?.on("error", () => {});
  return { done, stdout: child.stdout!, stdin: child.stdin!, kill: () => child.kill("SIGTERM") };
}

/** pg_dump of the database at `url` into `file`, in the custom format (compressed; pg_restore reads it). */
export async function dumpPostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await run("pg_dump", ["--format=custom", "--no-password", `--file=${file}`, `--dbname=${dbname}`], env).done;
}

/**
 * The names of the migrations a dump's database had run, read back out of the dump by pg_restore:
 * a dump pg_restore cannot read fails here, when it is made, not on the day it is needed.
 */
export async function dumpMigrations(file: string): Promise<string[]> {
  const listing = run("pg_restore", ["--list", file], process.env);
  listing.stdout.resume();
  await listing.done;
  const data = run("pg_restore", ["--data-only", "--table=kysely_migration", "--file=-", file], process.env);
  let text = "";
  data.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
  await data.done;
  const lines = text.split("\n");
  const start = lines.findIndex((line) => /^COPY \S*kysely_migration /.test(line));
  if (start === -1) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "\\.") break;
    names.push(line.split("\t")[0]!);
  }
  return names.sort();
}

/** Whether the database at `url` has any table of its own (a database just made has none). */
export async function postgresHasTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    return Number(rows[0]?.n ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/**
 * Restores the dump `file` into the database at `url` in ONE transaction (pg_restore writes the
 * script, psql runs it with --single-transaction and stops at the first error): either the whole
 * backup is there afterwards or nothing changed. `replace` first drops the schema `public` with
 * everything in it (tables a newer migration made included) in that same transaction.
 */
export async function restorePostgres(url: string, file: string, replace: boolean): Promise<void> {
  const { dbname, env } = connection(url);
  const script = run("pg_restore", ["--no-owner", "--no-privileges", "--file=-", file], process.env);
  const psql = run(
    "psql",
    ["-X", "--quiet", "--no-password", "--single-transaction", "-v", "ON_ERROR_STOP=1", `--dbname=${dbname}`],
    env,
    "pipe",
  );
  psql.stdout.resume();
  if (replace) psql.stdin.write("DROP SCHEMA public CASCADE;\nCREATE SCHEMA public;\n");
  // psql commits what it was given when its input ends: it is ended only once pg_restore has
  // written the whole script; a pg_restore that fails stops psql instead, and the transaction rolls back.
  const written = new Promise<void>((resolve) => script.stdout.once("end", resolve));
  script.stdout.pipe(psql.stdin, { end: false });
  try {
    await Promise.all([script.done, written]);
  } catch (error) {
    psql.kill();
    await psql.done.catch(() => {});
    throw error;
  }
  psql.stdin.end();
  await psql.done;
}
