import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "./boot.server";
import { db } from "./db.server";
import { AppError } from "./errors.server";
import {
  CODE_MESSAGES,
  CODE_TTL_MS,
  consumeResetToken,
  consumeSignupCode,
  findResetToken,
  issueResetToken,
  issueSignupCode,
  MAX_CODE_ATTEMPTS,
  RESET_INVALID,
  RESET_TTL_MS,
} from "./one-time-codes.server";

beforeAll(async () => {
  await ready;
});

let counter = 0;
/** A fresh email per test, so no test sees another's codes. */
const freshEmail = () => `otc-${++counter}-${crypto.randomBytes(3).toString("hex")}@example.com`;

/** A 4-digit code guaranteed to differ from `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 10000).padStart(4, "0");

const minutes = (n: number, from = new Date()) => new Date(from.getTime() + n * 60 * 1000);

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

async function expectCodeError(promise: Promise<unknown>, message: string) {
  const error = await rejection(promise);
  expect(error.status).toBe(400);
  expect(error.message).toBe(message);
  expect(error.fieldErrors).toEqual({ otp: message });
}

function signupRows(email: string) {
  return db.selectFrom("oneTimeCodes").selectAll().where("email", "=", email).where("purpose", "=", "signup").execute();
}

describe("sign-up codes", () => {
  it("are 4 digits", async () => {
    const codes = await Promise.all(Array.from({ length: 5 }, () => issueSignupCode(db, freshEmail())));
    for (const code of codes) expect(code).toMatch(/^\d{4}$/);
  });

  it("are stored only as a keyed hash, with an expiry 10 minutes ahead", async () => {
    const email = freshEmail();
    const now = new Date();
    const code = await issueSignupCode(db, email, now);
    const rows = await signupRows(email);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.codeHash).not.toBe(code);
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    // Not a plain hash of the code either (10,000 guesses would reverse it).
    for (const plain of [code, `signup\n${email}\n${code}`]) {
      expect(row.codeHash).not.toBe(crypto.createHash("sha256").update(plain).digest("hex"));
    }
    // No column holds the code itself.
    for (const value of Object.values(row)) expect(String(value)).not.toBe(code);
    expect(JSON.stringify(row)).not.toContain(`"${code}"`);
    expect(Number(row.attempts)).toBe(0);
    expect(row.usedAt).toBeNull();
    expect(Date.parse(row.expiresAt) - now.getTime()).toBe(CODE_TTL_MS);
  });

  it("a correct code works once; the second use says it was used", async () => {
    const email = freshEmail();
    const code = await issueSignupCode(db, email);
    await expect(consumeSignupCode(db, email, code)).resolves.toBeUndefined();
    expect((await signupRows(email))[0]!.usedAt).not.toBeNull();
    await expectCodeError(consumeSignupCode(db, email, code), CODE_MESSAGES.used);
  });

  it("a code belongs to its email", async () => {
    const email = freshEmail();
    const code = await issueSignupCode(db, email);
    await expectCodeError(consumeSignupCode(db, freshEmail(), code), CODE_MESSAGES.wrong);
    await expect(consumeSignupCode(db, email, code)).resolves.toBeUndefined();
  });

  it("an expired code is refused with the expired message", async () => {
    const email = freshEmail();
    const issuedAt = new Date();
    const code = await issueSignupCode(db, email, issuedAt);
    await expectCodeError(consumeSignupCode(db, email, code, minutes(11, issuedAt)), CODE_MESSAGES.expired);
    expect(CODE_MESSAGES.expired).toBe("This OTP has expired. Please request a new one.");
    // Nothing was used up: within the ten minutes it still works.
    await expect(consumeSignupCode(db, email, code, minutes(9, issuedAt))).resolves.toBeUndefined();
  });

  it("counts wrong tries", async () => {
    const email = freshEmail();
    const code = await issueSignupCode(db, email);
    await expectCodeError(consumeSignupCode(db, email, otherCode(code)), CODE_MESSAGES.wrong);
    await expectCodeError(consumeSignupCode(db, email, otherCode(code)), CODE_MESSAGES.wrong);
    expect(Number((await signupRows(email))[0]!.attempts)).toBe(2);
    // A few wrong tries do not kill the code.
    await expect(consumeSignupCode(db, email, code)).resolves.toBeUndefined();
  });

  it(`after ${MAX_CODE_ATTEMPTS} wrong tries the code is dead: the 6th try fails even with the right code`, async () => {
    expect(MAX_CODE_ATTEMPTS).toBe(5);
    const email = freshEmail();
    const code = await issueSignupCode(db, email);
    for (let i = 1; i < MAX_CODE_ATTEMPTS; i++) await expectCodeError(consumeSignupCode(db, email, otherCode(code)), CODE_MESSAGES.wrong);
    await expectCodeError(consumeSignupCode(db, email, otherCode(code)), CODE_MESSAGES.lastWrong);
    await expectCodeError(consumeSignupCode(db, email, code), CODE_MESSAGES.dead);
    await expectCodeError(consumeSignupCode(db, email, otherCode(code)), CODE_MESSAGES.dead);
    const [row] = await signupRows(email);
    expect(Number(row!.attempts)).toBe(MAX_CODE_ATTEMPTS);
    expect(row!.usedAt).toBeNull();
  });

  it("parallel wrong guesses cannot go past the limit", async () => {
    const email = freshEmail();
    const code = await issueSignupCode(db, email);
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 10000).padStart(4, "0"));
    const results = await Promise.allSettled(guesses.map((g) => consumeSignupCode(db, email, g)));
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    expect(Number((await signupRows(email))[0]!.attempts)).toBe(MAX_CODE_ATTEMPTS);
    await expectCodeError(consumeSignupCode(db, email, code), CODE_MESSAGES.dead);
  });

  it("issuing a new code kills the old one", async () => {
    const email = freshEmail();
    const old = await issueSignupCode(db, email);
    let fresh = await issueSignupCode(db, email);
    // 1 in 10,000 the new code equals the old one: draw again so the test means something.
    while (fresh === old) fresh = await issueSignupCode(db, email);
    expect(await signupRows(email)).toHaveLength(1);
    await expectCodeError(consumeSignupCode(db, email, old), CODE_MESSAGES.wrong);
    await expect(consumeSignupCode(db, email, fresh)).resolves.toBeUndefined();
  });

  it("a new code starts with a clean count", async () => {
    const email = freshEmail();
    const dead = await issueSignupCode(db, email);
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) await consumeSignupCode(db, email, otherCode(dead)).catch(() => undefined);
    await expectCodeError(consumeSignupCode(db, email, dead), CODE_MESSAGES.dead);
    const fresh = await issueSignupCode(db, email);
    await expect(consumeSignupCode(db, email, fresh)).resolves.toBeUndefined();
  });

  it("an email with no code gets the wrong-code message", async () => {
    await expectCodeError(consumeSignupCode(db, freshEmail(), "1234"), CODE_MESSAGES.wrong);
  });
});

describe("password-reset tokens", () => {
  it("are `<id>.<random>` and stored only hashed", async () => {
    const email = freshEmail();
    const token = await issueResetToken(db, email);
    expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    const [id, secret] = token.split(".");
    const row = await db.selectFrom("oneTimeCodes").selectAll().where("id", "=", Number(id)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email, purpose: "password_reset", usedAt: null });
    expect(JSON.stringify(row)).not.toContain(secret!);
    expect(Date.parse(row.expiresAt) - Date.parse(row.createdAt)).toBe(RESET_TTL_MS);
  });

  it("are valid once", async () => {
    const email = freshEmail();
    const token = await issueResetToken(db, email);
    expect(await findResetToken(db, token)).toEqual({ id: Number(token.split(".")[0]), email });
    expect(await consumeResetToken(db, token)).toBe(email);
    expect(await findResetToken(db, token)).toBeNull();
    const again = await rejection(consumeResetToken(db, token));
    expect(again.status).toBe(400);
    expect(again.message).toBe(RESET_INVALID);
  });

  it("expire after 30 minutes", async () => {
    const email = freshEmail();
    const issuedAt = new Date();
    const token = await issueResetToken(db, email, issuedAt);
    expect(await findResetToken(db, token, minutes(29, issuedAt))).not.toBeNull();
    expect(await findResetToken(db, token, minutes(31, issuedAt))).toBeNull();
    const late = await rejection(consumeResetToken(db, token, minutes(31, issuedAt)));
    expect(late.status).toBe(400);
    expect(late.message).toBe(RESET_INVALID);
    // Refusing it late did not use it up.
    expect(await consumeResetToken(db, token, minutes(1, issuedAt))).toBe(email);
  });

  it("a tampered token is refused", async () => {
    const email = freshEmail();
    const token = await issueResetToken(db, email);
    const [id, secret] = token.split(".") as [string, string];
    const flipped = secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A");
    const tampered = [
      `${id}.${flipped}`,
      `${Number(id) + 1000}.${secret}`,
      `${id}.${secret}x`,
      `${id}.${secret.slice(1)}`,
      secret,
      "",
      `${id}.`,
      `-${id}.${secret}`,
    ];
    for (const bad of tampered) {
      expect(await findResetToken(db, bad), bad).toBeNull();
      expect((await rejection(consumeResetToken(db, bad))).message).toBe(RESET_INVALID);
    }
    // The real one still works afterwards.
    expect(await consumeResetToken(db, token)).toBe(email);
  });

  it("a new token replaces the old one", async () => {
    const email = freshEmail();
    const old = await issueResetToken(db, email);
    const fresh = await issueResetToken(db, email);
    expect(await findResetToken(db, old)).toBeNull();
    expect(await consumeResetToken(db, fresh)).toBe(email);
  });

  it("a sign-up code cannot be used as a reset token, nor the other way round", async () => {
    const email = freshEmail();
    await issueSignupCode(db, email);
    const [signupRow] = await signupRows(email);
    expect(await findResetToken(db, `${signupRow!.id}.${"A".repeat(43)}`)).toBeNull();
    await issueResetToken(db, email);
    // The reset row does not satisfy the sign-up check (it only looks at sign-up rows).
    expect(await signupRows(email)).toHaveLength(1);
  });
});
