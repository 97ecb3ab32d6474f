// What a session keeps of an Admin Access login: a salted scrypt hash per
// grant, nothing keyed by the session secret, so reading sessions.data gives no fast offline check
// of ADMIN_PASSWORD; a changed ADMIN_PASSWORD still ends every grant.
import crypto from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_SESSION_MS, adminGrantValid, adminPassword, newAdminGrant } from "./admin-password.server";
import { env } from "./env.server";

const original = env.ADMIN_PASSWORD;
afterEach(() => {
  env.ADMIN_PASSWORD = original;
});

describe("admin grants", () => {
  it("hold a random id, a random salt and scrypt(password, salt): no password, nothing keyed by the session secret", async () => {
    const password = adminPassword()!;
    const now = Date.now();
    const [a, b] = [(await newAdminGrant(now))!, (await newAdminGrant(now))!];
    expect(Object.keys(a).sort()).toEqual(["hash", "id", "salt", "until"]);
    expect(a.until).toBe(new Date(now + ADMIN_SESSION_MS).toISOString());
    expect(a.id).not.toBe(b.id);
    expect(a.salt).not.toBe(b.salt);
    expect(a.hash).not.toBe(b.hash);
    expect(a.hash).toBe(crypto.scryptSync(`admin:${password}`, a.salt, 32, { N: 16384, r: 8, p: 1 }).toString("base64url"));
    expect(JSON.stringify(a)).not.toContain(password);
    expect(await adminGrantValid(a)).toBe(true);
    expect(await adminGrantValid(b)).toBe(true);
  });

  it("a changed ADMIN_PASSWORD ends every grant; an expired, altered or old-style grant is refused", async () => {
    const grant = (await newAdminGrant())!;
    expect(await adminGrantValid(grant)).toBe(true);
    env.ADMIN_PASSWORD = "another-admin-password";
    expect(await adminGrantValid(grant)).toBe(false);
    env.ADMIN_PASSWORD = original;
    expect(await adminGrantValid(grant)).toBe(true);
    expect(await adminGrantValid(grant, Date.parse(grant.until) + 1)).toBe(false);
    expect(await adminGrantValid({ ...grant, hash: grant.hash.replace(/^./, (c) => (c === "A" ? "B" : "A")) })).toBe(false);
    expect(await adminGrantValid({ ...grant, salt: "another-salt" })).toBe(false);
    // What sessions kept before: an HMAC of the password under the session secret.
    expect(await adminGrantValid({ key: "x".repeat(43), until: grant.until } as never)).toBe(false);
    expect(await adminGrantValid(undefined)).toBe(false);
  });

  it("a grant made by another process is checked once per process (scrypt), then from memory", async () => {
    const password = adminPassword()!;
    const salt = crypto.randomBytes(16).toString("base64url");
    const hash = crypto.scryptSync(`admin:${password}`, salt, 32, { N: 16384, r: 8, p: 1 }).toString("base64url");
    const grant = { id: crypto.randomBytes(16).toString("base64url"), salt, hash, until: new Date(Date.now() + 60_000).toISOString() };
    let start = performance.now();
    expect(await adminGrantValid(grant)).toBe(true);
    const first = performance.now() - start;
    start = performance.now();
    for (let i = 0; i < 20; i++) expect(await adminGrantValid(grant)).toBe(true);
    const twenty = performance.now() - start;
    expect(twenty).toBeLessThan(first);
  });
});
