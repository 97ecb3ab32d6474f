// What the scripts that start the production server over a database of their own share
// (scripts/crash-test.mjs, scripts/bench.mjs, scripts/cluster.mjs): a free loopback port, a fresh
// PostgreSQL database made through an admin connection and dropped afterwards, a throwaway
// PostgreSQL 15 cluster (scripts/with-pg.mjs), and Debian's packages installed when missing.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A new, empty PostgreSQL database named `{prefix}_{random}`, made with the admin connection:
 * its URL, and `drop()` to remove it (connections to it are ended).
 * @param {string} adminUrl
 * @param {string} prefix
 */
export async function createPgDatabase(adminUrl, prefix) {
  const name = `${prefix}_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/**
 * Makes sure a program from Debian's packages is there: when `binary` is missing and this process
 * is root, `apt-get install`s `pkg` (as CI, root on a fresh Debian machine, needs); otherwise
 * throws an error that says what to install.
 * @param {string} binary absolute path of the program
 * @param {string} pkg the Debian package that ships it
 */
export function ensureDebianPackage(binary, pkg) {
  if (fs.existsSync(binary)) return;
  if (process.getuid?.() !== 0) throw new Error(`${binary} not found: install it as root with \`apt-get install ${pkg}\``);
  console.info(`Installing ${pkg} with apt-get…`);
  const quiet = { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } };
  execFileSync("apt-get", ["update", "-qq"], quiet);
  execFileSync("apt-get", ["install", "-y", "-qq", pkg], quiet);
  if (!fs.existsSync(binary)) throw new Error(`apt-get installed ${pkg} but ${binary} is still missing`);
}

const PGBIN = process.env.PGBIN ?? "/usr/lib/postgresql/15/bin";

/**
 * A throwaway PostgreSQL 15 cluster on 127.0.0.1 (a free port, trust authentication, its socket
 * and data in a temporary folder): `adminUrl` names its `postgres` superuser's connection, and
 * `stop()` stops it and removes the folder (`stop({ keep: true })` leaves the folder). Needs root
 * (the server runs as the postgres user); installs postgresql-15 with apt-get when missing.
 */
export async function startPostgres() {
  ensureDebianPackage(path.join(PGBIN, "initdb"), "postgresql-15");
  if (process.getuid?.() !== 0) throw new Error("A throwaway PostgreSQL cluster needs root (it runs as the postgres user)");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "shop-pg-"));
  const asPostgres = (program, args) =>
    execFileSync("runuser", ["-u", "postgres", "--", path.join(PGBIN, program), ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let started = false;
  /** Stops the server; removes its folder unless `keep` (its data then stays, to look at or start again with pg_ctl). */
  const stop = ({ keep = false } = {}) => {
    if (started) {
      try {
        asPostgres("pg_ctl", ["-D", path.join(work, "data"), "-m", keep ? "fast" : "immediate", "stop"]);
      } catch {
        // already stopped
      }
      started = false;
    }
    if (!keep) fs.rmSync(work, { recursive: true, force: true });
  };
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    fs.chownSync(work, uid, -1);
    const port = await freePort();
    asPostgres("initdb", ["-D", path.join(work, "data"), "-U", "postgres", "--auth=trust"]);
    const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${work}`;
    asPostgres("pg_ctl", ["-D", path.join(work, "data"), "-o", options, "-l", path.join(work, "log"), "-w", "start"]);
    started = true;
    return { adminUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`, port, dir: work, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
