// The secrets the app signs and hashes with: the session key (SESSION_SECRET), the one-time-code
// key (ONE_TIME_CODE_SECRET: sign-up and email-change codes, reset links) and the offline test
// gateway's key and webhook secrets (TEST_GATEWAY_SECRET, TEST_GATEWAY_WEBHOOK_SECRET).
//
// - A variable, when set, always wins.
// - SQLite (one server): a secret without its variable is generated once into a file in DATA_DIR
//   (mode 0600), as before.
// - PostgreSQL (any number of servers on one database): a secret without its variable is
//   generated once into the database (shared_secrets, migration 0022: insert if absent, then read,
//   so servers starting together end up with the same value) and read by every server; never a
//   file. A secret from a variable has its one-way fingerprint recorded there the first time; a
//   server whose variable's fingerprint differs, or that lacks the variable the others were given,
//   refuses to start (StartupError): no server runs with a secret only it knows. Rotation
//   (docs/api.md, "Secrets"): a SESSION_SECRET list that still holds the recorded key is accepted
//   and its first key recorded; any other new value is recorded by a start whose SECRETS_ACCEPT_NEW
//   names it (the code its refusal printed). Two servers racing to record different values: the
//   second's write finds the row changed and it refuses. A running server whose value is no longer
//   the recorded one answers GET /readyz 503 "secrets-mismatch" (app/lib/lifecycle.server.ts).
//
// Boot loads them (loadSecrets, app/lib/boot.server.ts) before the first request; the synchronous
// getters below read what was loaded. No value is ever logged or sent.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import type { Cookie, CookieOptions } from "@remix-run/node";
import { isPostgresUrl, nowIso } from "./db.server";
import type { Db } from "./db.server";
import { env, StartupError } from "./env.server";
import type { Env } from "./env.server";
import { remember } from "./remember.server";
import { log } from "./log.server";

export const SECRET_VARIABLES = {
  session: "SESSION_SECRET",
  "one-time-codes": "ONE_TIME_CODE_SECRET",
  "offline-gateway": "TEST_GATEWAY_SECRET",
  "offline-gateway-webhook": "TEST_GATEWAY_WEBHOOK_SECRET",
} as const satisfies Record<string, keyof Env>;

export type SecretName = keyof typeof SECRET_VARIABLES;
const SECRET_NAMES = Object.keys(SECRET_VARIABLES) as SecretName[];

/** Each secret's keys: the first signs; only SESSION_SECRET may list more (accepted, for rotation). */
export type Secrets = Map<SecretName, string[]>;

// One per process, also when a development server reloads the modules (boot runs once).
const loaded: Secrets = remember("secrets", (): Secrets => new Map());

export function persistentSecret(name: string, bytes = 32, dataDir = env.DATA_DIR): string {
  const file = path.resolve(dataDir, `${name}.secret`);
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not created yet
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = crypto.randomBytes(bytes).toString("hex");
  try {
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  } catch {
    // Another process created it first: use theirs. A file that exists but is too short (emptied,
    // written by hand) would make signatures guessable: stop and say how to mend it.
    const theirs = fs.readFileSync(file, "utf8").trim();
    if (theirs.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters: delete the file to generate a new one`);
    return theirs;
  }
}

function keysFromEnv(name: SecretName, source: Env): string[] | null {
  const value = source[SECRET_VARIABLES[name]];
  if (!value) return null;
  if (name !== "session") return [value];
  return value
    .split(",")
    .map((key) => key.trim())
    .filter(Boolean);
}

/** SQLite's: the variable, else the file in DATA_DIR. */
function localKeys(name: SecretName, source: Env): string[] {
  return keysFromEnv(name, source) ?? [persistentSecret(name, 32, source.DATA_DIR)];
}

// What a fingerprint costs: scrypt1 (N=4096) was the first; scrypt2 raises N (boot-time cost only,
// a few tens of milliseconds a value). A row recorded as scrypt1 is compared as scrypt1, then recorded anew.
const FINGERPRINT_COSTS = {
  scrypt1: { N: 4096, r: 8, p: 1 },
  scrypt2: { N: 16384, r: 8, p: 1 },
} as const;
type FingerprintVersion = keyof typeof FINGERPRINT_COSTS;
const FINGERPRINT_VERSION: FingerprintVersion = "scrypt2";

/** A one-way fingerprint of a secret (scrypt under a fixed label and the secret's name): what the database keeps of a variable. */
export function secretFingerprint(name: SecretName, value: string, version: FingerprintVersion = FINGERPRINT_VERSION): Promise<string> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(value, `sagwan-living shared secret fingerprint v1: ${name}`, 32, FINGERPRINT_COSTS[version], (error, key) =>
      error ? reject(error) : resolve(`${version}:${key.toString("base64url")}`),
    );
  });
}

/** The code SECRETS_ACCEPT_NEW takes to record this value: the start of its fingerprint (it names the value: no switch left on). */
export function acceptCode(fingerprint: string): string {
  return fingerprint.slice(fingerprint.indexOf(":") + 1).slice(0, 12);
}

const rotationHint = (print: string) =>
  `or, after a deliberate change, start one server with SECRETS_ACCEPT_NEW=${acceptCode(print)} (it records this value; docs/api.md)`;

async function sharedRow(db: Db, name: SecretName) {
  return db.selectFrom("sharedSecrets").select(["value", "fingerprint"]).where("name", "=", name).executeTakeFirst();
}

/** Inserts the row unless another server did first; answers the row that stands. */
async function insertIfAbsent(db: Db, name: SecretName, value: string | null, fingerprint: string) {
  const now = nowIso();
  await db
    .insertInto("sharedSecrets")
    .values({ name, value, fingerprint, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  return (await sharedRow(db, name))!;
}

/** Records a new fingerprint (and no value) only if the row still holds the one read: answers whether it did. */
async function replaceRecorded(db: Db, name: SecretName, read: string, fingerprint: string): Promise<boolean> {
  const result = await db
    .updateTable("sharedSecrets")
    .set({ value: null, fingerprint, updatedAt: nowIso() })
    .where("name", "=", name)
    .where("fingerprint", "=", read)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** One secret as a server loaded it: its keys, their fingerprints, and whether it was generated into the database. */
interface SharedSecret {
  keys: string[];
  prints: string[];
  generated: boolean;
}

/** PostgreSQL's: the variable checked against the recorded fingerprint, else the shared generated value. */
async function sharedKeys(db: Db, name: SecretName, source: Env): Promise<SharedSecret> {
  const variable = SECRET_VARIABLES[name];
  const keys = keysFromEnv(name, source);
  if (!keys) {
    let row = await sharedRow(db, name);
    if (!row) {
      const generated = crypto.randomBytes(32).toString("hex");
      row = await insertIfAbsent(db, name, generated, await secretFingerprint(name, generated));
    }
    if (row.value === null) {
      throw new StartupError(
        `${variable} is not set here, but the other servers on this database were started with it: ` +
          `set the same ${variable} on every server`,
      );
    }
    if (row.value.length < 32) throw new StartupError(`shared_secrets holds a ${name} secret shorter than 32 characters: delete its row`);
    return { keys: [row.value], prints: [row.fingerprint], generated: true };
  }
  const prints = await Promise.all(keys.map((key) => secretFingerprint(name, key)));
  let row = (await sharedRow(db, name)) ?? (await insertIfAbsent(db, name, null, prints[0]!));
  const recordedVersion = row.fingerprint.split(":")[0]!;
  if (recordedVersion !== FINGERPRINT_VERSION && recordedVersion in FINGERPRINT_COSTS) {
    // Recorded by the cheaper fingerprint: compared as it was made, and (when one of ours) recorded anew.
    const older = await Promise.all(keys.map((key) => secretFingerprint(name, key, recordedVersion as FingerprintVersion)));
    const at = older.indexOf(row.fingerprint);
    if (at !== -1 && row.value === null) {
      await db
        .updateTable("sharedSecrets")
        .set({ fingerprint: prints[at]!, updatedAt: nowIso() })
        .where("name", "=", name)
        .where("fingerprint", "=", row.fingerprint)
        .execute();
      row = (await sharedRow(db, name))!;
    }
  }
  const loaded = { keys, prints, generated: false };
  if (row.fingerprint === prints[0] && row.value === null) return loaded;
  const differs = () =>
    new StartupError(
      `${variable} differs from the one the other servers on this database use (its fingerprint does not match the recorded one): ` +
        `set the same value on every server, ${rotationHint(prints[0]!)}`,
    );
  // A value the servers share no longer (a rotation, or a variable now set where a generated value
  // served): recorded only when this server still accepts the recorded key (a SESSION_SECRET list
  // with a new key first) or SECRETS_ACCEPT_NEW names this very value.
  if (prints.includes(row.fingerprint) || source.SECRETS_ACCEPT_NEW.includes(acceptCode(prints[0]!))) {
    if (!(await replaceRecorded(db, name, row.fingerprint, prints[0]!))) {
      // Another server recorded a value between the read and the write (servers started together):
      // judged again against what it recorded; never a start on a value only this server uses.
      const now = await sharedRow(db, name);
      if (now?.fingerprint !== prints[0] || now.value !== null) throw differs();
    }
    if (row.fingerprint !== prints[0]) log.info(`${variable}: recorded this server's value as the one every server on this database uses`);
    return loaded;
  }
  if (row.value !== null) {
    throw new StartupError(
      `${variable} is set here, but the other servers on this database use a ${name} secret generated into the database ` +
        `(they were started without ${variable}): set ${variable} on every server, ${rotationHint(prints[0]!)}`,
    );
  }
  throw differs();
}

async function readAll(db: Db, source: Env): Promise<Map<SecretName, SharedSecret>> {
  const secrets = new Map<SecretName, SharedSecret>();
  const shared = isPostgresUrl(source.DATABASE_URL);
  for (const name of SECRET_NAMES) {
    secrets.set(name, shared ? await sharedKeys(db, name, source) : { keys: localKeys(name, source), prints: [], generated: false });
  }
  return secrets;
}

/** Every secret as this server would use it (nothing is kept: loadSecrets keeps them). */
export async function readSecrets(db: Db, source: Env = env): Promise<Secrets> {
  return new Map([...(await readAll(db, source))].map(([name, { keys }]) => [name, keys]));
}

// The fingerprints of what this process loaded (PostgreSQL): /readyz compares them with the recorded ones.
const loadedPrints = remember("secretPrints", () => new Map<SecretName, string[]>());

/** Boot: reads every secret once, before the first request (app/lib/boot.server.ts). */
export async function loadSecrets(db: Db, source: Env = env): Promise<void> {
  const all = await readAll(db, source);
  for (const [name, { keys, prints }] of all) {
    loaded.set(name, keys);
    if (prints.length) loadedPrints.set(name, prints);
  }
  const generated = [...all].filter(([, secret]) => secret.generated).map(([name]) => SECRET_VARIABLES[name]);
  if (source.NODE_ENV === "production" && generated.length) {
    log.warn(
      `${generated.join(", ")} not set: generated into the database (shared_secrets), where whoever reads the database reads them; ` +
        "set them as variables on every server (README)",
    );
  }
}

/**
 * The secrets whose recorded fingerprint is no longer one of this process's (another server recorded
 * a new value after this one started): GET /readyz answers 503 "secrets-mismatch". None on SQLite.
 */
export async function mismatchedSecrets(db: Db): Promise<SecretName[]> {
  if (loadedPrints.size === 0) return [];
  const rows = await db.selectFrom("sharedSecrets").select(["name", "fingerprint"]).execute();
  const recorded = new Map(rows.map((row) => [row.name, row.fingerprint]));
  return [...loadedPrints].filter(([name, prints]) => !prints.includes(recorded.get(name) ?? "")).map(([name]) => name);
}

/** A secret's keys, first the signing one. On PostgreSQL only what boot loaded; on SQLite the file at first use too. */
export function secretKeys(name: SecretName): string[] {
  const keys = loaded.get(name);
  if (keys) return keys;
  if (isPostgresUrl(env.DATABASE_URL)) {
    throw new Error(`The ${name} secret was asked for before the server loaded its secrets (await ready, app/lib/boot.server.ts)`);
  }
  const local = localKeys(name, env);
  loaded.set(name, local);
  return local;
}

export function secret(name: SecretName): string {
  return secretKeys(name)[0]!;
}

export function sessionSecrets(): string[] {
  return secretKeys("session");
}

/**
 * A cookie signed with the session keys, made at its first use (after boot loaded the keys) though
 * declared when its module loads.
 */
export function sessionSignedCookie(name: string, options: Omit<CookieOptions, "secrets">): Cookie {
  let cookie: Cookie | null = null;
  const made = () => (cookie ??= createCookie(name, { ...options, secrets: sessionSecrets() }));
  return {
    get name() {
      return name;
    },
    get isSigned() {
      return true;
    },
    get expires() {
      return made().expires;
    },
    parse: (header, parseOptions) => made().parse(header, parseOptions),
    serialize: (value, serializeOptions) => made().serialize(value, serializeOptions),
  };
}
