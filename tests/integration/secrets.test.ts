// Secrets across app servers (ADR 0020; app/lib/secrets.server.ts). On PostgreSQL every server
// reads one value per secret: generated once into shared_secrets when no variable is set (never a
// file), or its variable, whose fingerprint is recorded so a server with a different one refuses
// to start. On SQLite (one server) a secret without its variable is a file in DATA_DIR, as before.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb, db, isPostgresUrl } from "~/lib/db.server";
import type { Db } from "~/lib/db.server";
import { env, parseEnv, StartupError } from "~/lib/env.server";
import {
  acceptCode,
  loadSecrets,
  mismatchedSecrets,
  readSecrets,
  secret,
  secretFingerprint,
  SECRET_VARIABLES,
  sessionSecrets,
} from "~/lib/secrets.server";
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
    // The refusal names the code that records this very value (the start of its fingerprint).
    const code = acceptCode(await secretFingerprint("one-time-codes", value));
    expect(generatedRefusal.message).toContain(`start one server with SECRETS_ACCEPT_NEW=${code} (it records this value`);
    expect(generatedRefusal.message).not.toContain(value);
    // A code naming another value (or left on from an earlier change) records nothing.
    const otherCode = acceptCode(await secretFingerprint("one-time-codes", other));
    await refusal(readSecrets(server(), serverEnv({ ONE_TIME_CODE_SECRET: value, SECRETS_ACCEPT_NEW: otherCode }).env));

    const accepted = await readSecrets(server(), serverEnv({ ONE_TIME_CODE_SECRET: value, SECRETS_ACCEPT_NEW: code }).env);
    expect(accepted.get("one-time-codes")).toEqual([value]);
    const row = await db.selectFrom("sharedSecrets").selectAll().where("name", "=", "one-time-codes").executeTakeFirstOrThrow();
    expect(row.value).toBeNull();
    expect(row.fingerprint).toMatch(/^scrypt2:[\w-]{43}$/);
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

  it("SECRETS_ACCEPT_NEW left on records nothing else: a stale server with the old value and the flag refuses", async () => {
    await db.deleteFrom("sharedSecrets").execute();
    const [old, next] = ["o".repeat(40), "n".repeat(40)];
    await readSecrets(server(), serverEnv({ TEST_GATEWAY_SECRET: old }).env);
    const code = acceptCode(await secretFingerprint("offline-gateway", next));
    await readSecrets(server(), serverEnv({ TEST_GATEWAY_SECRET: next, SECRETS_ACCEPT_NEW: code }).env);
    // The pod that kept the old value restarts with the same deployment's flag: refused, the new value stays recorded.
    const stale = await refusal(readSecrets(server(), serverEnv({ TEST_GATEWAY_SECRET: old, SECRETS_ACCEPT_NEW: code }).env));
    expect(stale.message).toMatch(/^TEST_GATEWAY_SECRET differs/);
    const row = await db.selectFrom("sharedSecrets").select("fingerprint").where("name", "=", "offline-gateway").executeTakeFirstOrThrow();
    expect(row.fingerprint).toBe(await secretFingerprint("offline-gateway", next));
  });

  it("a server whose recording write finds the row changed by another server (started together) re-reads it and refuses", async () => {
    await db.deleteFrom("sharedSecrets").execute();
    const [old, mine, theirs] = ["o".repeat(40), "m".repeat(40), "t".repeat(40)];
    await readSecrets(server(), serverEnv({ TEST_GATEWAY_SECRET: old }).env);
    const [mineCode, theirsPrint] = [
      acceptCode(await secretFingerprint("offline-gateway", mine)),
      await secretFingerprint("offline-gateway", theirs),
    ];
    // Right after this server reads the recorded row, the other server records its own value.
    let raced = false;
    const selects = new Set<unknown>();
    const racing = server().withPlugin({
      transformQuery(args) {
        if (args.node.kind === "SelectQueryNode" && JSON.stringify(args.node).includes('"offline-gateway"')) selects.add(args.queryId);
        return args.node;
      },
      async transformResult(args) {
        if (!raced && selects.has(args.queryId)) {
          raced = true;
          await db
            .updateTable("sharedSecrets")
            .set({ fingerprint: theirsPrint, value: null })
            .where("name", "=", "offline-gateway")
            .execute();
        }
        return args.result;
      },
    });
    const refused = await refusal(
      readSecrets(racing, serverEnv({ TEST_GATEWAY_SECRET: mine, SECRETS_ACCEPT_NEW: `${mineCode},${acceptCode(theirsPrint)}` }).env),
    );
    expect(raced).toBe(true);
    expect(refused.message).toMatch(/^TEST_GATEWAY_SECRET differs/);
    const row = await db.selectFrom("sharedSecrets").select("fingerprint").where("name", "=", "offline-gateway").executeTakeFirstOrThrow();
    expect(row.fingerprint).toBe(theirsPrint);
  });

  it("a running server whose value is no longer the recorded one is told by mismatchedSecrets (GET /readyz)", async () => {
    await db.deleteFrom("sharedSecrets").execute();
    const key = "k".repeat(40);
    await loadSecrets(server(), serverEnv({ TEST_GATEWAY_SECRET: key }).env);
    expect(await mismatchedSecrets(db)).toEqual([]);
    const next = "z".repeat(40);
    await readSecrets(
      server(),
      serverEnv({ TEST_GATEWAY_SECRET: next, SECRETS_ACCEPT_NEW: acceptCode(await secretFingerprint("offline-gateway", next)) }).env,
    );
    expect(await mismatchedSecrets(db)).toEqual(["offline-gateway"]);
  });

  it("a fingerprint recorded by the cheaper scrypt1 is still matched, and recorded anew as scrypt2", async () => {
    await db.deleteFrom("sharedSecrets").execute();
    const key = "q".repeat(40);
    const v1 = await secretFingerprint("offline-gateway", key, "scrypt1");
    expect(v1).toMatch(/^scrypt1:/);
    await db
      .insertInto("sharedSecrets")
      .values({
        name: "offline-gateway",
        value: null,
        fingerprint: v1,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      })
      .execute();
    expect((await readSecrets(server(), serverEnv({ TEST_GATEWAY_SECRET: key }).env)).get("offline-gateway")).toEqual([key]);
    const row = await db.selectFrom("sharedSecrets").select("fingerprint").where("name", "=", "offline-gateway").executeTakeFirstOrThrow();
    expect(row.fingerprint).toBe(await secretFingerprint("offline-gateway", key));
    await refusal(readSecrets(server(), serverEnv({ TEST_GATEWAY_SECRET: "r".repeat(40) }).env));
  });

  it("in production, a secret generated into the database is warned about at boot in one line, without its value", async () => {
    await db.deleteFrom("sharedSecrets").execute();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const local = serverEnv({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(32) }).env;
      await loadSecrets(server(), local);
      expect(warn.mock.calls).toHaveLength(1);
      const line = String(warn.mock.calls[0]![0]);
      expect(line).toMatch(/^ONE_TIME_CODE_SECRET, TEST_GATEWAY_SECRET, TEST_GATEWAY_WEBHOOK_SECRET not set: generated into the database/);
      expect(line).not.toContain("\n");
      for (const row of await db.selectFrom("sharedSecrets").select("value").execute())
        if (row.value) expect(line).not.toContain(row.value);
      warn.mockClear();
      await loadSecrets(server(), serverEnv({ NODE_ENV: "development", SESSION_SECRET: "s".repeat(32) }).env);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      await db.deleteFrom("sharedSecrets").execute();
    }
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
