import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { HASH_CAP, hashPassword, needsRehash, SCRYPT_PARAMS, setHashParamsInTests, verifyPassword } from "./password.server";

// The shop's own parameters (the tests' setup makes the other files' hashes cheaper).
setHashParamsInTests(null);

// Each real hash costs a few hundred milliseconds: two hashes serve the whole file.
const PASSWORD = "correct horse 42";
let first = "";
let second = "";

beforeAll(async () => {
  [first, second] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
});

/** A hash in the stored format made with cheap parameters (what an older setting left behind). */
function cheapHash(password: string, N = 1024, r = 8, p = 1) {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(password.normalize("NFKC"), salt, 32, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

describe("hashPassword", () => {
  it("stores the scrypt parameters (N=16384, r=8, p=5), a salt and a key, never the password", () => {
    expect(SCRYPT_PARAMS).toEqual({ N: 16384, r: 8, p: 5 });
    const parts = first.split("$");
    expect(parts.slice(0, 4)).toEqual(["scrypt", "16384", "8", "5"]);
    expect(parts).toHaveLength(6);
    expect(Buffer.from(parts[4]!, "base64")).toHaveLength(16);
    expect(Buffer.from(parts[5]!, "base64")).toHaveLength(32);
    expect(first).not.toContain(PASSWORD);
  });

  it("salts: two hashes of the same password differ", () => {
    expect(second).not.toBe(first);
    expect(second.split("$")[4]).not.toBe(first.split("$")[4]);
  });
});

it("keeps its parameters in production: the tests' cheaper ones cannot be set there", () => {
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    expect(() => setHashParamsInTests({ N: 2, r: 1, p: 1 })).toThrow("fixed in production");
  } finally {
    process.env.NODE_ENV = saved;
  }
});

describe("verifyPassword", () => {
  it("round trip: the right password matches both hashes", async () => {
    expect(await verifyPassword(PASSWORD, first)).toBe(true);
    expect(await verifyPassword(PASSWORD, second)).toBe(true);
  });

  it("a wrong password is false", async () => {
    expect(await verifyPassword("correct horse 43", first)).toBe(false);
  });

  it("no stored hash (unknown account) is false", async () => {
    expect(await verifyPassword(PASSWORD, null)).toBe(false);
  });

  it("no stored hash still costs about one real check, so an unknown email (or a sign-up not yet verified) answers no faster", async () => {
    // Interleaved, so a busy machine slows both sides alike.
    let missing = 0;
    let real = 0;
    for (let i = 0; i < 3; i++) {
      let t = performance.now();
      expect(await verifyPassword(PASSWORD, null)).toBe(false);
      missing += performance.now() - t;
      t = performance.now();
      expect(await verifyPassword("wrong password", first)).toBe(false);
      real += performance.now() - t;
    }
    expect(missing).toBeGreaterThan(real * 0.3);
  });

  it("a malformed stored value is false", async () => {
    expect(await verifyPassword(PASSWORD, "plain-text-password")).toBe(false);
  });

  it("hashes made with other parameters still verify: the parameters travel in the string", async () => {
    const old = cheapHash("old secret");
    expect(await verifyPassword("old secret", old)).toBe(true);
    expect(await verifyPassword("Old secret", old)).toBe(false);
  });

  it("refuses absurd parameters without computing them", async () => {
    const base = cheapHash("x").split("$");
    const huge = ["scrypt", String(2 ** 24), base[2], base[3], base[4], base[5]].join("$");
    expect(await verifyPassword("x", huge)).toBe(false);
  });

  it("compares NFKC-normalised text", async () => {
    // U+FB01 (the "fi" ligature) and "fi" are the same password after NFKC.
    const stored = cheapHash("ﬁsh-and-chips");
    expect(await verifyPassword("fish-and-chips", stored)).toBe(true);
  });
});

describe("needsRehash", () => {
  it("is false for today's parameters", () => {
    expect(needsRehash(first)).toBe(false);
  });

  it("is true for weaker parameters or an unknown format", () => {
    expect(needsRehash(cheapHash("x"))).toBe(true);
    expect(needsRehash(cheapHash("x", 16384, 8, 1))).toBe(true);
    expect(needsRehash("not a hash")).toBe(true);
    expect(needsRehash("")).toBe(true);
  });
});

describe("the process-wide cap on hashes", () => {
  it("runs a few at once, lets a few wait, and answers the rest 503 at once instead of queueing them", async () => {
    const saved = { ...HASH_CAP };
    HASH_CAP.running = 1;
    HASH_CAP.waiting = 1;
    try {
      const started = Date.now();
      const settled: { ok: boolean; status?: number; at: number }[] = [];
      const track = (p: Promise<string>) =>
        p.then(
          () => settled.push({ ok: true, at: Date.now() - started }),
          (error: { status?: number }) => settled.push({ ok: false, status: error.status, at: Date.now() - started }),
        );
      await Promise.all(Array.from({ length: 5 }, (_, i) => track(hashPassword(`password-${i}`))));
      const refused = settled.filter((s) => !s.ok);
      expect(settled.filter((s) => s.ok)).toHaveLength(2);
      expect(refused).toHaveLength(3);
      expect(refused.every((s) => s.status === 503)).toBe(true);
      // Refused before the first hash finished.
      const firstDone = Math.min(...settled.filter((s) => s.ok).map((s) => s.at));
      expect(Math.max(...refused.map((s) => s.at))).toBeLessThan(firstDone);
      // The cap frees its slots: the next hash runs.
      await expect(hashPassword("after")).resolves.toMatch(/^scrypt\$/);
    } finally {
      Object.assign(HASH_CAP, saved);
    }
  });

  it("one client holds at most its share (running or waiting): the rest of its hashes are 429 at once, others still queue", async () => {
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => "ok",
        (error: { status?: number }) => String(error.status),
      );
    const mine = Array.from({ length: HASH_CAP.perClient + 3 }, (_, i) => outcome(hashPassword(`mine-${i}`, "198.51.100.7")));
    const others = [outcome(verifyPassword("other", null, "203.0.113.9")), outcome(hashPassword("no address"))];
    const results = await Promise.all(mine);
    expect(results.filter((r) => r === "ok")).toHaveLength(HASH_CAP.perClient);
    expect(results.filter((r) => r === "429")).toHaveLength(3);
    expect(await Promise.all(others)).toEqual(["ok", "ok"]);
    // Its share is free again once its hashes are done.
    await expect(hashPassword("later", "198.51.100.7")).resolves.toMatch(/^scrypt\$/);
  });
});
