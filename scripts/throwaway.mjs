// What the scripts that start the production server over a database of their own share
// (scripts/crash-test.mjs, scripts/bench.mjs): a free loopback port, and a fresh PostgreSQL
// database made through an admin connection and dropped afterwards.
import crypto from "node:crypto";
import net from "node:net";
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
