import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "./boot.server";
import { db } from "./db.server";
import { AppError } from "./errors.server";
import {
  ATTEMPT_TTL_MS,
  CODE_MESSAGES,
  CODE_TTL_MS,
  consumeResetToken,
  consumeSignupCode,
  endResetTokens,
  endSignupAttempts,
  findResetToken,
  issueResetToken,
  LIVE_RESET_LINKS,
  issueSignupCode,
  MAX_CODE_ATTEMPTS,
  renewSignupCode,
  RESET_INVALID,
  RESET_TTL_MS,
  SEVERAL_WAITING,
  UNKNOWN_ATTEMPT,
} from "./one-time-codes.server";
import type { AttemptRef } from "./one-time-codes.server";

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

/**
 * What a sign-up attempt holds: the form's details, the password only as its hash, and whether
 * it is bound to the browser that made it (web sign-ups are; API registrations are not).
 */
const payloadFor = (name: string, bound = false) => JSON.stringify({ name, mobile: null, passwordHash: `scrypt$16384$8$5$${name}`, bound });

/**
 * Open an attempt with a payload of its own; returns its row id (for the assertions), its code,
 * that payload, and `ref`: its handle as the request that opened it names it (a browser for a
 * bound attempt, an API client otherwise).
 */
async function attempt(email: string, name = "Asha", now?: Date, bound = false) {
  const payload = payloadFor(name, bound);
  const { handle, code } = await issueSignupCode(db, email, payload, now);
  const { id } = await db.selectFrom("oneTimeCodes").select("id").where("handle", "=", handle).executeTakeFirstOrThrow();
  const ref: AttemptRef = { handle, via: bound ? "browser" : "api" };
  return { id, handle, code, payload, ref };
}

/** Open another attempt whose code differs from each of `codes` (1 in 10,000 a draw repeats). */
async function attemptWithOtherCode(email: string, codes: string | string[], name = "Other", bound = false) {
  const taken = [codes].flat();
  let next = await attempt(email, name, undefined, bound);
  while (taken.includes(next.code)) next = await attempt(email, name, undefined, bound);
  return next;
}

/** A 4-digit code that is none of `codes`. */
function codeOtherThan(...codes: string[]) {
  let wrong = otherCode(codes[0]!);
  while (codes.includes(wrong)) wrong = otherCode(wrong);
  return wrong;
}

/** The 404 a handle gets that names no attempt the request may reach. */
async function expectUnknownAttempt(promise: Promise<unknown>) {
  const error = await rejection(promise);
  expect(error.status).toBe(404);
  expect(error.message).toBe(UNKNOWN_ATTEMPT);
  expect(error.fieldErrors).toEqual({ attemptId: UNKNOWN_ATTEMPT });
}

/** The 409 a code without a handle gets while several unbound attempts wait. */
async function expectSeveralWaiting(promise: Promise<unknown>) {
  const error = await rejection(promise);
  expect(error.status).toBe(409);
  expect(error.message).toBe(SEVERAL_WAITING);
  expect(error.fieldErrors).toEqual({ otp: SEVERAL_WAITING });
}

async function attemptRow(id: number) {
  return db.selectFrom("oneTimeCodes").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

describe("sign-up codes", () => {
  it("are 4 digits, each attempt with its own random handle (128 bits), stored on its row", async () => {
    const email = freshEmail();
    const made = await Promise.all(Array.from({ length: 5 }, () => issueSignupCode(db, email, payloadFor("x"))));
    for (const { handle, code } of made) {
      expect(code).toMatch(/^\d{4}$/);
      expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(handle, "base64url")).toHaveLength(16);
    }
    expect(new Set(made.map((m) => m.handle)).size).toBe(5);
    expect((await signupRows(email)).map((r) => r.handle).sort()).toEqual(made.map((m) => m.handle).sort());
  });

  it("are stored only as a keyed hash, beside the attempt's payload, with an expiry 10 minutes ahead", async () => {
    const email = freshEmail();
    const now = new Date();
    const { id, code, payload } = await attempt(email, "Asha", now);
    const rows = await signupRows(email);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.id).toBe(id);
    expect(row.payload).toBe(payload);
    expect(row.codeHash).not.toBe(code);
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    // Not a plain hash of the code either (10,000 guesses would reverse it).
    for (const plain of [code, `signup\n${email}\n${code}`]) {
      expect(row.codeHash).not.toBe(crypto.createHash("sha256").update(plain).digest("hex"));
    }
    // No column holds the code itself.
    for (const value of Object.values(row)) expect(String(value)).not.toBe(code);
    expect(JSON.stringify({ ...row, payload: null })).not.toContain(`"${code}"`);
    expect(Number(row.attempts)).toBe(0);
    expect(row.usedAt).toBeNull();
    expect(Date.parse(row.expiresAt) - now.getTime()).toBe(CODE_TTL_MS);
  });

  it("a correct code works once and gives back the attempt's payload; the second use says it was used", async () => {
    const email = freshEmail();
    const { id, code, payload, ref } = await attempt(email);
    await expect(consumeSignupCode(db, email, code, null)).resolves.toBe(payload);
    expect((await attemptRow(id)).usedAt).not.toBeNull();
    await expectCodeError(consumeSignupCode(db, email, code, null), CODE_MESSAGES.used);
    await expectCodeError(consumeSignupCode(db, email, code, ref), CODE_MESSAGES.used);
  });

  it("a code belongs to its email", async () => {
    const email = freshEmail();
    const { code, payload } = await attempt(email);
    await expectCodeError(consumeSignupCode(db, freshEmail(), code, null), CODE_MESSAGES.wrong);
    await expect(consumeSignupCode(db, email, code, null)).resolves.toBe(payload);
  });

  it("a code belongs to its attempt's email even when the handle is given", async () => {
    const email = freshEmail();
    const { code, payload, ref } = await attempt(email);
    // Another email naming this attempt's handle finds no attempt of its own.
    await expectUnknownAttempt(consumeSignupCode(db, freshEmail(), code, ref));
    await expect(consumeSignupCode(db, email, code, ref)).resolves.toBe(payload);
  });

  it("a handle reaches its attempt only from where it was opened: a browser's through the API is unknown, and the reverse", async () => {
    const email = freshEmail();
    const web = await attempt(email, "Browser", undefined, true);
    const api = await attemptWithOtherCode(email, web.code, "API");
    const before = await Promise.all([web.id, api.id].map(attemptRow));
    // The right code and the right handle, from the wrong side: 404, and nothing counted or renewed.
    await expectUnknownAttempt(consumeSignupCode(db, email, web.code, { handle: web.handle, via: "api" }));
    await expectUnknownAttempt(renewSignupCode(db, email, { handle: web.handle, via: "api" }));
    await expectUnknownAttempt(consumeSignupCode(db, email, api.code, { handle: api.handle, via: "browser" }));
    await expectUnknownAttempt(renewSignupCode(db, email, { handle: api.handle, via: "browser" }));
    expect(await Promise.all([web.id, api.id].map(attemptRow))).toEqual(before);
    // From its own side each works.
    await expect(consumeSignupCode(db, email, web.code, web.ref)).resolves.toBe(web.payload);
    await expect(consumeSignupCode(db, email, api.code, api.ref)).resolves.toBe(api.payload);
  });

  it("a guessed handle, a row id, or anything else that is not a live attempt's handle is unknown", async () => {
    const email = freshEmail();
    const { id, code, ref } = await attempt(email);
    const guesses: unknown[] = [crypto.randomBytes(16).toString("base64url"), id, String(id), "", ref.handle.slice(1), `${ref.handle}=`];
    for (const handle of guesses) {
      const guess = { handle, via: "api" } as AttemptRef;
      await expectUnknownAttempt(consumeSignupCode(db, email, code, guess));
      await expectUnknownAttempt(renewSignupCode(db, email, guess));
    }
    expect(Number((await attemptRow(id)).attempts)).toBe(0);
  });

  it("an expired code is refused with the expired message", async () => {
    const email = freshEmail();
    const issuedAt = new Date();
    const { code, payload } = await attempt(email, "Asha", issuedAt);
    await expectCodeError(consumeSignupCode(db, email, code, null, minutes(11, issuedAt)), CODE_MESSAGES.expired);
    // A wrong code after the expiry says the same (nothing waits any more).
    await expectCodeError(consumeSignupCode(db, email, otherCode(code), null, minutes(11, issuedAt)), CODE_MESSAGES.expired);
    expect(CODE_MESSAGES.expired).toBe("This OTP has expired. Please request a new one.");
    // Nothing was used up: within the ten minutes it still works.
    await expect(consumeSignupCode(db, email, code, null, minutes(9, issuedAt))).resolves.toBe(payload);
  });

  it("counts wrong tries", async () => {
    const email = freshEmail();
    const { id, code, payload, ref } = await attempt(email);
    await expectCodeError(consumeSignupCode(db, email, otherCode(code), null), CODE_MESSAGES.wrong);
    await expectCodeError(consumeSignupCode(db, email, otherCode(code), ref), CODE_MESSAGES.wrong);
    expect(Number((await attemptRow(id)).attempts)).toBe(2);
    // A few wrong tries do not kill the code.
    await expect(consumeSignupCode(db, email, code, ref)).resolves.toBe(payload);
  });

  it(`after ${MAX_CODE_ATTEMPTS} wrong tries the code is dead: the 6th try fails even with the right code`, async () => {
    expect(MAX_CODE_ATTEMPTS).toBe(5);
    const email = freshEmail();
    const { id, code, ref } = await attempt(email);
    for (let i = 1; i < MAX_CODE_ATTEMPTS; i++)
      await expectCodeError(consumeSignupCode(db, email, otherCode(code), null), CODE_MESSAGES.wrong);
    await expectCodeError(consumeSignupCode(db, email, otherCode(code), null), CODE_MESSAGES.lastWrong);
    await expectCodeError(consumeSignupCode(db, email, code, null), CODE_MESSAGES.dead);
    await expectCodeError(consumeSignupCode(db, email, code, ref), CODE_MESSAGES.dead);
    await expectCodeError(consumeSignupCode(db, email, otherCode(code), null), CODE_MESSAGES.dead);
    const row = await attemptRow(id);
    expect(Number(row.attempts)).toBe(MAX_CODE_ATTEMPTS);
    expect(row.usedAt).toBeNull();
  });

  it("parallel wrong guesses cannot go past the limit", async () => {
    const email = freshEmail();
    const { id, code } = await attempt(email);
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 10000).padStart(4, "0"));
    const results = await Promise.allSettled(guesses.map((g) => consumeSignupCode(db, email, g, null)));
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    expect(Number((await attemptRow(id)).attempts)).toBe(MAX_CODE_ATTEMPTS);
    await expectCodeError(consumeSignupCode(db, email, code, null), CODE_MESSAGES.dead);
  });

  it("an email with no code gets the wrong-code message", async () => {
    await expectCodeError(consumeSignupCode(db, freshEmail(), "1234", null), CODE_MESSAGES.wrong);
  });
});

describe("several sign-up attempts for one email", () => {
  it("a second attempt leaves the first as it is: both rows wait, each code (with its handle) gives back its own payload", async () => {
    const email = freshEmail();
    const first = await attempt(email, "Victim");
    const before = await attemptRow(first.id);
    const second = await attemptWithOtherCode(email, first.code, "Attacker");
    expect(second.id).not.toBe(first.id);
    expect((await signupRows(email)).map((r) => r.id).sort((a, b) => a - b)).toEqual([first.id, second.id].sort((a, b) => a - b));
    // The first attempt's row is untouched: same code hash, payload, tries and expiry.
    expect(await attemptRow(first.id)).toEqual(before);
    // With its handle each code confirms its own attempt.
    await expect(consumeSignupCode(db, email, first.code, first.ref)).resolves.toBe(first.payload);
    await expect(consumeSignupCode(db, email, second.code, second.ref)).resolves.toBe(second.payload);
  });

  it(
    "without a handle, several unbound attempts waiting (live, dead or with an expired code): " +
      "409 whatever the code, and nothing ends or is counted; each still confirms with its handle",
    async () => {
      const email = freshEmail();
      // Finished ones first: a dead unbound attempt (5 wrong tries on it alone) and an expired one.
      const dead = await attempt(email, "Dead");
      for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) await consumeSignupCode(db, email, otherCode(dead.code), dead.ref).catch(() => undefined);
      const expired = await attemptWithOtherCode(email, dead.code, "Expired");
      await db
        .updateTable("oneTimeCodes")
        .set({ expiresAt: minutes(-1).toISOString() })
        .where("id", "=", expired.id)
        .execute();
      const bound = await attemptWithOtherCode(email, [dead.code, expired.code], "Browser", true);
      const a = await attemptWithOtherCode(email, [dead.code, expired.code, bound.code], "A");
      const b = await attemptWithOtherCode(email, [dead.code, expired.code, bound.code, a.code], "B");
      const rows = async () => Promise.all([dead, expired, bound, a, b].map((x) => attemptRow(x.id)));
      const before = await rows();

      // Even the right code of one of them: it cannot tell whose sign-up it would confirm. A wrong
      // code likewise. Nothing ends and no try is counted: a client that kept its handle (a
      // careful app, or the real owner) is not put out by someone who sends codes without one.
      await expectSeveralWaiting(consumeSignupCode(db, email, a.code, null));
      await expectSeveralWaiting(consumeSignupCode(db, email, codeOtherThan(a.code, b.code), null));
      expect(await rows()).toEqual(before);

      // With their handles, each confirms its own attempt.
      await expect(consumeSignupCode(db, email, a.code, a.ref)).resolves.toBe(a.payload);
      await expect(consumeSignupCode(db, email, bound.code, bound.ref)).resolves.toBe(bound.payload);
      // B, the dead and the expired one still wait: still several, still refused without a handle.
      await expectSeveralWaiting(consumeSignupCode(db, email, b.code, null));
      await expect(consumeSignupCode(db, email, b.code, b.ref)).resolves.toBe(b.payload);
    },
  );

  it(
    "an attempt bound to a browser is out of sight without its handle: " +
      "its code is wrong there, its tries are not counted, it is not renewed",
    async () => {
      const email = freshEmail();
      const bound = await attempt(email, "Browser", undefined, true);
      const before = await attemptRow(bound.id);
      await expectCodeError(consumeSignupCode(db, email, bound.code, null), CODE_MESSAGES.wrong);
      await expectCodeError(consumeSignupCode(db, email, otherCode(bound.code), null), CODE_MESSAGES.wrong);
      expect(await renewSignupCode(db, email, null)).toBeNull();
      expect(await attemptRow(bound.id)).toEqual(before);
      // With its handle it is reached like any attempt.
      await expect(consumeSignupCode(db, email, bound.code, bound.ref)).resolves.toBe(bound.payload);
    },
  );

  it("two bound attempts do not make the unbound one ambiguous: without a handle it alone is checked", async () => {
    const email = freshEmail();
    const x = await attempt(email, "Browser X", undefined, true);
    const y = await attemptWithOtherCode(email, x.code, "Browser Y", true);
    const api = await attemptWithOtherCode(email, [x.code, y.code], "API");
    await expectCodeError(consumeSignupCode(db, email, x.code, null), CODE_MESSAGES.wrong);
    await expect(consumeSignupCode(db, email, api.code, null)).resolves.toBe(api.payload);
    expect(Number((await attemptRow(x.id)).attempts)).toBe(0);
    expect(Number((await attemptRow(y.id)).attempts)).toBe(0);
  });

  it("with a handle only that attempt's code counts", async () => {
    const email = freshEmail();
    const mine = await attempt(email, "Victim");
    const theirs = await attemptWithOtherCode(email, mine.code, "Attacker");
    // The other attempt's (valid) code is a wrong code for this attempt, and is counted on it alone.
    await expectCodeError(consumeSignupCode(db, email, theirs.code, mine.ref), CODE_MESSAGES.wrong);
    expect(Number((await attemptRow(mine.id)).attempts)).toBe(1);
    expect(Number((await attemptRow(theirs.id)).attempts)).toBe(0);
    expect((await attemptRow(theirs.id)).usedAt).toBeNull();
    // Its own code works, and gives back its own payload.
    await expect(consumeSignupCode(db, email, mine.code, mine.ref)).resolves.toBe(mine.payload);
    // The other attempt was not used up by any of this.
    await expect(consumeSignupCode(db, email, theirs.code, theirs.ref)).resolves.toBe(theirs.payload);
  });

  it("a wrong try without a handle is counted on the unbound waiting attempt only, never on a bound one", async () => {
    const email = freshEmail();
    const bound = await attempt(email, "Browser", undefined, true);
    const a = await attemptWithOtherCode(email, bound.code, "A");
    const wrong = codeOtherThan(a.code, bound.code);
    await expectCodeError(consumeSignupCode(db, email, wrong, null), CODE_MESSAGES.wrong);
    expect(Number((await attemptRow(a.id)).attempts)).toBe(1);
    expect(Number((await attemptRow(bound.id)).attempts)).toBe(0);
    // The bound attempt's own code is just another wrong code there, counted on the unbound one.
    await expectCodeError(consumeSignupCode(db, email, bound.code, null), CODE_MESSAGES.wrong);
    expect(Number((await attemptRow(a.id)).attempts)).toBe(2);
    for (let i = 3; i < MAX_CODE_ATTEMPTS; i++) await expectCodeError(consumeSignupCode(db, email, wrong, null), CODE_MESSAGES.wrong);
    await expectCodeError(consumeSignupCode(db, email, wrong, null), CODE_MESSAGES.lastWrong);
    await expectCodeError(consumeSignupCode(db, email, a.code, null), CODE_MESSAGES.dead);
    await expectCodeError(consumeSignupCode(db, email, wrong, null), CODE_MESSAGES.dead);
    expect(Number((await attemptRow(a.id)).attempts)).toBe(MAX_CODE_ATTEMPTS);
    // The bound attempt had none of those tries, and still works with its handle.
    expect(Number((await attemptRow(bound.id)).attempts)).toBe(0);
    await expect(consumeSignupCode(db, email, bound.code, bound.ref)).resolves.toBe(bound.payload);
  });

  it("an attempt's tries do not count on the attempts that were not checked", async () => {
    const email = freshEmail();
    const a = await attempt(email, "A");
    const b = await attemptWithOtherCode(email, a.code, "B");
    let wrong = otherCode(a.code);
    while (wrong === b.code) wrong = otherCode(wrong);
    for (let i = 1; i < MAX_CODE_ATTEMPTS; i++) await expectCodeError(consumeSignupCode(db, email, wrong, a.ref), CODE_MESSAGES.wrong);
    await expectCodeError(consumeSignupCode(db, email, wrong, a.ref), CODE_MESSAGES.lastWrong);
    await expectCodeError(consumeSignupCode(db, email, a.code, a.ref), CODE_MESSAGES.dead);
    expect(Number((await attemptRow(b.id)).attempts)).toBe(0);
    await expect(consumeSignupCode(db, email, b.code, b.ref)).resolves.toBe(b.payload);
  });

  it("endSignupAttempts deletes the waiting attempts, and their codes stop working", async () => {
    const email = freshEmail();
    const used = await attempt(email, "Verified");
    await consumeSignupCode(db, email, used.code, used.ref);
    const a = await attempt(email, "A");
    const b = await attempt(email, "B");
    const bystander = freshEmail();
    const other = await attempt(bystander, "Someone else");
    await endSignupAttempts(db, email);
    // The used attempt stays (for the record); the waiting ones are gone.
    expect((await signupRows(email)).map((r) => r.id)).toEqual([used.id]);
    for (const ended of [a, b]) {
      const error = await rejection(consumeSignupCode(db, email, ended.code, null));
      expect(error.status).toBe(400);
      expect(Object.values(CODE_MESSAGES)).toContain(error.message);
      await expectUnknownAttempt(renewSignupCode(db, email, ended.ref));
    }
    expect(await renewSignupCode(db, email, null)).toBeNull();
    // Another email's attempt is not touched.
    await expect(consumeSignupCode(db, bystander, other.code, other.ref)).resolves.toBe(other.payload);
  });
});

describe("renewSignupCode", () => {
  it("gives the attempt a new code: the old one stops working and the tries start again", async () => {
    const email = freshEmail();
    const { id, code, payload, ref } = await attempt(email);
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) await consumeSignupCode(db, email, otherCode(code), ref).catch(() => undefined);
    await expectCodeError(consumeSignupCode(db, email, code, ref), CODE_MESSAGES.dead);
    let fresh = await renewSignupCode(db, email, ref);
    // 1 in 10,000 the new code equals the old one: draw again so the test means something.
    while (fresh === code) fresh = await renewSignupCode(db, email, ref);
    expect(fresh).toMatch(/^\d{4}$/);
    const row = await attemptRow(id);
    expect(Number(row.attempts)).toBe(0);
    expect(row.payload).toBe(payload);
    expect(await signupRows(email)).toHaveLength(1);
    await expectCodeError(consumeSignupCode(db, email, code, ref), CODE_MESSAGES.wrong);
    await expect(consumeSignupCode(db, email, fresh!, ref)).resolves.toBe(payload);
  });

  it("without a handle renews the only unbound waiting attempt; a bound one keeps its code", async () => {
    const email = freshEmail();
    const bound = await attempt(email, "Browser", undefined, true);
    const api = await attemptWithOtherCode(email, bound.code, "API");
    const boundBefore = await attemptRow(bound.id);
    let fresh = await renewSignupCode(db, email, null);
    while (fresh === api.code) fresh = await renewSignupCode(db, email, null);
    expect(fresh).toMatch(/^\d{4}$/);
    expect(await attemptRow(bound.id)).toEqual(boundBefore);
    await expectCodeError(consumeSignupCode(db, email, api.code, api.ref), CODE_MESSAGES.wrong);
    await expect(consumeSignupCode(db, email, fresh!, api.ref)).resolves.toBe(api.payload);
    await expect(consumeSignupCode(db, email, bound.code, bound.ref)).resolves.toBe(bound.payload);
  });

  it("without a handle renews nothing while several unbound attempts wait (whose would it be?)", async () => {
    const email = freshEmail();
    const older = await attempt(email, "Older");
    const newer = await attemptWithOtherCode(email, older.code, "Newer");
    const before = await Promise.all([older.id, newer.id].map(attemptRow));
    expect(await renewSignupCode(db, email, null)).toBeNull();
    expect(await Promise.all([older.id, newer.id].map(attemptRow))).toEqual(before);
    // Nothing was changed or ended: each code still works with its handle.
    await expect(consumeSignupCode(db, email, older.code, older.ref)).resolves.toBe(older.payload);
    await expect(consumeSignupCode(db, email, newer.code, newer.ref)).resolves.toBe(newer.payload);
  });

  it("without a handle renews nothing when only a bound attempt waits", async () => {
    const email = freshEmail();
    const bound = await attempt(email, "Browser", undefined, true);
    const before = await attemptRow(bound.id);
    expect(await renewSignupCode(db, email, null)).toBeNull();
    expect(await attemptRow(bound.id)).toEqual(before);
    // With its handle it is renewed like any attempt.
    expect(await renewSignupCode(db, email, bound.ref)).toMatch(/^\d{4}$/);
  });

  it("with a handle renews that attempt only", async () => {
    const email = freshEmail();
    const older = await attempt(email, "Older");
    const newer = await attemptWithOtherCode(email, older.code, "Newer");
    const newerBefore = await attemptRow(newer.id);
    let fresh = await renewSignupCode(db, email, older.ref);
    while (fresh === older.code) fresh = await renewSignupCode(db, email, older.ref);
    expect(await attemptRow(newer.id)).toEqual(newerBefore);
    await expectCodeError(consumeSignupCode(db, email, older.code, older.ref), CODE_MESSAGES.wrong);
    await expect(consumeSignupCode(db, email, fresh!, older.ref)).resolves.toBe(older.payload);
    await expect(consumeSignupCode(db, email, newer.code, newer.ref)).resolves.toBe(newer.payload);
  });

  it("renews nothing when nothing waits: null for an unknown email, 404 for another email's or a used attempt's handle", async () => {
    expect(await renewSignupCode(db, freshEmail(), null)).toBeNull();
    const email = freshEmail();
    const { code, ref } = await attempt(email);
    await expectUnknownAttempt(renewSignupCode(db, freshEmail(), ref));
    await consumeSignupCode(db, email, code, ref);
    await expectUnknownAttempt(renewSignupCode(db, email, ref));
    expect(await renewSignupCode(db, email, null)).toBeNull();
  });

  it(`an attempt lives at most ${ATTEMPT_TTL_MS / 60000} minutes, however often its code is renewed`, async () => {
    expect(ATTEMPT_TTL_MS).toBe(60 * 60 * 1000);
    const email = freshEmail();
    const openedAt = new Date();
    const { id, payload, ref } = await attempt(email, "Late", openedAt);
    // Renewed after 30 minutes: the usual 10 minutes ahead.
    const mid = await renewSignupCode(db, email, ref, minutes(30, openedAt));
    expect(mid).toMatch(/^\d{4}$/);
    expect(Date.parse((await attemptRow(id)).expiresAt)).toBe(minutes(40, openedAt).getTime());
    // Renewed after 55 minutes: the code ends with the attempt, at 60, not at 65.
    const late = await renewSignupCode(db, email, ref, minutes(55, openedAt));
    expect(Date.parse((await attemptRow(id)).expiresAt)).toBe(openedAt.getTime() + ATTEMPT_TTL_MS);
    await expectCodeError(consumeSignupCode(db, email, late!, ref, minutes(61, openedAt)), CODE_MESSAGES.expired);
    // After the hour no new code is given.
    await expectUnknownAttempt(renewSignupCode(db, email, ref, minutes(61, openedAt)));
    expect(await renewSignupCode(db, email, null, minutes(61, openedAt))).toBeNull();
    // Before its end the last code still works.
    await expect(consumeSignupCode(db, email, late!, ref, minutes(59, openedAt))).resolves.toBe(payload);
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

  it(`a new token ends only those past the newest ${LIVE_RESET_LINKS} (a stranger's requests cannot void the owner's link)`, async () => {
    const email = freshEmail();
    const tokens: string[] = [];
    for (let i = 0; i <= LIVE_RESET_LINKS; i++) tokens.push(await issueResetToken(db, email));
    expect(await findResetToken(db, tokens[0]!)).toBeNull();
    for (const token of tokens.slice(1)) expect(await findResetToken(db, token)).toMatchObject({ email });
    expect(await consumeResetToken(db, tokens.at(-1)!)).toBe(email);
  });

  it("a sign-up code cannot be used as a reset token, nor the other way round", async () => {
    const email = freshEmail();
    const { id, code, payload, ref } = await attempt(email);
    expect(await findResetToken(db, `${id}.${"A".repeat(43)}`)).toBeNull();
    const token = await issueResetToken(db, email);
    // A new reset token replaces reset tokens only: the sign-up attempt waits on.
    expect(await signupRows(email)).toHaveLength(1);
    // The reset row does not satisfy the sign-up check (it only looks at sign-up rows).
    await expectCodeError(consumeSignupCode(db, email, token, null), CODE_MESSAGES.wrong);
    expect(Number((await attemptRow(id)).attempts)).toBe(1);
    await expect(consumeSignupCode(db, email, code, ref)).resolves.toBe(payload);
    expect(await consumeResetToken(db, token)).toBe(email);
  });

  it("endResetTokens ends the email's reset tokens only", async () => {
    const email = freshEmail();
    const other = freshEmail();
    const token = await issueResetToken(db, email);
    const othersToken = await issueResetToken(db, other);
    const signup = await attempt(email);
    await endResetTokens(db, email);
    expect(await findResetToken(db, token)).toBeNull();
    expect((await rejection(consumeResetToken(db, token))).message).toBe(RESET_INVALID);
    expect(await findResetToken(db, othersToken)).not.toBeNull();
    // Sign-up attempts are not reset tokens: they wait on.
    await expect(consumeSignupCode(db, email, signup.code, signup.ref)).resolves.toBe(signup.payload);
  });
});
