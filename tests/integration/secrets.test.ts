// Secrets across app servers (issue 15; app/lib/secrets.server.ts). On PostgreSQL every server
// reads one value per secret: generated once into shared_secrets when no variable is set (never a
// file), or its variable, whose fingerprint is recorded so a server with a different one refuses
// to start. On SQLite (one server) a secret without its variable is a file in DATA_DIR, as before.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, db, isPostgresUrl } from "~/lib/db.server";
import type { Db } from "~/lib/db.server";
import { env, parseEnv, StartupError } from "~/lib/env.server";
import { readSecrets, secret, SECRET_VARIABLES, sessionSecrets } from "~/lib/secrets.server";
import type { SecretName } from "~/lib/secrets.server";
import * as m0022 from "../../migrations/2026-11-26-0022-shared-secrets";

const onPostgres = isPostgresUrl(env.DATABASE_URL);
const NAMES = Object.keys(SECRET_VARIABLES) as SecretName[];

/** A server's environment: its own data folder, plus the given variables. */
function serverEnv(variables: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-secrets-"));
  return { dataDir, env: parseEnv({ ...process.env, DATA_DIR: dataDir, ...variables }) };
}

async function refusal(promise: Promise<unknown>): Promise<StartupError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StartupError);
  return error as StartupError;
}

describe.skipIf(!onPostgres)("secrets on PostgreSQL", () => {
  const others: Db[] = [];
  beforeAll(async () => {
    // Asked for before boot loaded them: refused, never made up locally.
    // (boot starts when its module is first imported: here, after this check)
    expect(() => secret("one-time-codes")).toThrow(/before the server loaded its secrets/);
    const { ready } = await import("~/lib/boot.server");
    await ready;
  });
  afterAll(async () => {
    for (const other of others) await other.destroy();
  });
  const server = () => {
    const other = createDb(env.DATABASE_URL);
    others.push(other);
    return other;
  };

  it("are generated once and shared: two servers starting together read the same values, and write no file", async () => {
    await db.deleteFrom("sharedSecrets").execute();
    const [a, b] = [serverEnv(), serverEnv()];
    const [first, second] = await Promise.all([readSecrets(server(), a.env), readSecrets(server(), b.env)]);
    for (const name of NAMES) {
      expect(first.get(name)).toHaveLength(1);
      expect(first.get(name)![0]).toMatch(/^[0-9a-f]{64}$/);
      expect(second.get(name)).toEqual(first.get(name));
    }
    expect(new Set(NAMES.map((name) => first.get(name)![0])).size).toBe(NAMES.length);
    // A later start reads them again; nothing lands in any data folder.
    expect(await readSecrets(server(), serverEnv().env)).toEqual(first);
    expect(fs.readdirSync(a.dataDir)).toEqual([]);
    expect(fs.readdirSync(b.dataDir)).toEqual([]);
    const rows = await db.selectFrom("sharedSecrets").select(["name", "value"]).orderBy("name").execute();
    expect(rows).toEqual(NAMES.map((name) => ({ name, value: first.get(name)![0] })).sort((x, y) => x.name.localeCompare(y.name)));
  });

  it("a variable is recorded by its fingerprint only; a server with another value, or without it, refuses to start", async () => {
    const value = "x".repeat(20) + "first-one-time-code-key";
    const other = "y".repeat(20) + "other-one-time-code-key";
    // The servers so far use a generated key: a variable now set is a change, made only on purpose.
    const generatedRefusal = await refusal(readSecrets(server(), serverEnv({ ONE_TIME_CODE_SECRET: value }).env));
    expect(generatedRefusal.message).toMatch(
      /^ONE_TIME_CODE_SECRET is set here, but the other servers on this database use a one-time-codes secret/,
    );
    expect(generatedRefusal.message).toContain("SECRETS_ACCEPT_NEW=1");
    expect(generatedRefusal.message).not.toContain(value);

    const accepted = await readSecrets(server(), serverEnv({ ONE_TIME_CODE_SECRET: value, SECRETS_ACCEPT_NEW: "1" }).env);
    expect(accepted.get("one-time-codes")).toEqual([value]);
    const row = await db.selectFrom("sharedSecrets").selectAll().where("name", "=", "one-time-codes").executeTakeFirstOrThrow();
    expect(row.value).toBeNull();
    expect(row.fingerprint).toMatch(/^scrypt1:[\w-]{43}$/);
    expect(JSON.stringify(row)).not.toContain(value);

    // The same value starts without the flag; another value, or none, does not.
    expect((await readSecrets(server(), serverEnv({ ONE_TIME_CODE_SECRET: value }).env)).get("one-time-codes")).toEqual([value]);
    const differs = await refusal(readSecrets(server(), serverEnv({ ONE_TIME_CODE_SECRET: other }).env));
    expect(differs.message).toMatch(/^ONE_TIME_CODE_SECRET differs from the one the other servers on this database use/);
    expect(differs.message).toContain("set the same value on every server");
    expect(differs.message).not.toContain(other);
    const missing = await refusal(readSecrets(server(), serverEnv().env));
    expect(missing.message).toMatch(/^ONE_TIME_CODE_SECRET is not set here, but the other servers on this database were started with it/);
    // The refusals changed nothing.
    const after = await db.selectFrom("sharedSecrets").selectAll().where("name", "=", "one-time-codes").executeTakeFirstOrThrow();
    expect(after.fingerprint).toBe(row.fingerprint);
  });

  it("two servers started together with different values: one records its own, the other refuses", async () => {
    await db.deleteFrom("sharedSecrets").where("name", "=", "offline-gateway").execute();
    const [a, b] = ["a", "b"].map((c) =>
      serverEnv({ ONE_TIME_CODE_SECRET: "x".repeat(20) + "first-one-time-code-key", TEST_GATEWAY_SECRET: c.repeat(40) }),
    );
    const results = await Promise.allSettled([readSecrets(server(), a!.env), readSecrets(server(), b!.env)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/TEST_GATEWAY_SECRET differs/);
  });

  it("SESSION_SECRET rotates: a list that still holds the recorded key is accepted and its first key recorded", async () => {
    await db.deleteFrom("sharedSecrets").execute();
    const [old, next] = ["old-session-key-0123456789", "new-session-key-9876543210"];
    expect((await readSecrets(server(), serverEnv({ SESSION_SECRET: old }).env)).get("session")).toEqual([old]);
    // Not yet rotated: a server given only the new key refuses (it could not read the others' cookies).
    expect((await refusal(readSecrets(server(), serverEnv({ SESSION_SECRET: next }).env))).message).toMatch(/^SESSION_SECRET differs/);
    // The new key first, the old one kept: accepted, and the new key is the recorded one from now on.
    expect((await readSecrets(server(), serverEnv({ SESSION_SECRET: `${next}, ${old}` }).env)).get("session")).toEqual([next, old]);
    expect((await readSecrets(server(), serverEnv({ SESSION_SECRET: next }).env)).get("session")).toEqual([next]);
    expect((await refusal(readSecrets(server(), serverEnv({ SESSION_SECRET: old }).env))).message).toMatch(/^SESSION_SECRET differs/);
  });
});

describe.skipIf(onPostgres)("secrets on SQLite (one server)", () => {
  it("without a variable, each is generated once into a file in DATA_DIR (mode 0600); a variable wins", async () => {
    const { ready } = await import("~/lib/boot.server");
    await ready;
    const { dataDir, env: local } = serverEnv();
    const first = await readSecrets(db, local);
    expect(await readSecrets(db, local)).toEqual(first);
    for (const name of NAMES) {
      const file = path.join(dataDir, `${name}.secret`);
      expect(fs.readFileSync(file, "utf8")).toBe(first.get(name)![0]);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    }
    const given = await readSecrets(
      db,
      serverEnv({ TEST_GATEWAY_WEBHOOK_SECRET: "w".repeat(32), SESSION_SECRET: "key-one-0123456789,key-two-0123456789" }).env,
    );
    expect(given.get("offline-gateway-webhook")).toEqual(["w".repeat(32)]);
    expect(given.get("session")).toEqual(["key-one-0123456789", "key-two-0123456789"]);
    // The shared table is not used: the secrets of one server stay on its disk.
    expect(await db.selectFrom("sharedSecrets").selectAll().execute()).toEqual([]);
  });

  it("the getters read what boot loaded", async () => {
    const { ready } = await import("~/lib/boot.server");
    await ready;
    expect(sessionSecrets()).toEqual([fs.readFileSync(path.join(env.DATA_DIR, "session.secret"), "utf8")]);
    expect(secret("one-time-codes")).toBe(fs.readFileSync(path.join(env.DATA_DIR, "one-time-codes.secret"), "utf8"));
  });
});

describe("migration 2026-11-26-0022-shared-secrets", () => {
  it("down drops shared_secrets; up makes it again, empty, and a server then generates its secrets anew", async () => {
    const { ready } = await import("~/lib/boot.server");
    await ready;
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0022.up>[0];
    await m0022.down(raw);
    try {
      await expect(db.selectFrom("sharedSecrets").selectAll().execute()).rejects.toThrow();
    } finally {
      await db.transaction().execute((trx) => m0022.up(trx.withoutPlugins() as unknown as Parameters<typeof m0022.up>[0]));
    }
    expect(await db.selectFrom("sharedSecrets").selectAll().execute()).toEqual([]);
    const again = await readSecrets(db, serverEnv().env);
    expect(again.get("one-time-codes")![0]).toMatch(/^[0-9a-f]{64}$/);
    expect((await db.selectFrom("sharedSecrets").select("name").execute()).length).toBe(onPostgres ? NAMES.length : 0);
  });
});
