// Sign-up attempts are named by random handles (ADR 0006; docs/api.md, Accounts):
// `attemptId` is 128 random bits, never the row's sequential id, and an attempt made on the
// /signup page (bound to its browser) is out of reach of the API's verifyOtp and resendOtp,
// even with its handle and the right code: the API answers as for an attempt that does not exist.
import crypto from "node:crypto";
import { sql } from "kysely";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as m0005 from "../../migrations/2026-11-23-0005-signup-attempt-handles";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { settleMail } from "~/lib/mail.server";
import { UNKNOWN_ATTEMPT } from "~/lib/one-time-codes.server";
import { sessionCookie } from "~/lib/session.server";
import * as apiRegister from "~/routes/api.user.auth.register";
import * as apiResendOtp from "~/routes/api.user.auth.resendOtp";
import * as apiVerifyOtp from "~/routes/api.user.auth.verifyOtp";
import * as signup from "~/routes/signup";
import * as verifyOtp from "~/routes/verify-otp";
import { latestCode, mailsTo } from "../support/outbox";
import { formRequest, getRequest, jsonRequest } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, cookieJar, expectApiError } from "../support/route-calls";
import { codesNeverRepeat } from "../support/codes";

// Each registration costs a scrypt hash (~0.3 s, more on a busy machine).
vi.setConfig({ testTimeout: 60_000 });

const PASSWORD = "secret12";
/** base64url of 16 random bytes: 22 characters, no padding. */
const HANDLE = /^[A-Za-z0-9_-]{22}$/;

beforeAll(async () => {
  await ready;
});

let counter = 0;
const freshEmail = (tag: string) => `${tag}-${++counter}-${crypto.randomBytes(3).toString("hex")}@example.com`;

const apiRegistration = (email: string, name = "Api Client") =>
  call(apiRegister.action, jsonRequest("POST", "/api/user/auth/register", { name, email, password: PASSWORD }));
const apiVerify = (body: unknown) => call(apiVerifyOtp.action, jsonRequest("POST", "/api/user/auth/verifyOtp", body));
const apiResend = (body: unknown) => call(apiResendOtp.action, jsonRequest("POST", "/api/user/auth/resendOtp", body));

/** The `attemptId` a registration answered. */
function handleOf(answer: Answer): string {
  expect(answer.status).toBe(201);
  const handle = asRecord(answer.body).attemptId;
  expect(typeof handle).toBe("string");
  return handle as string;
}

/** Fill in the /signup form as a browser does; returns the browser's cookie. */
async function browserSignup(email: string, name = "Web Customer"): Promise<string> {
  const fields = { name, email, mobile: "", password: PASSWORD, confirmPassword: PASSWORD, terms: "on" };
  const answer = await call(signup.action, formRequest("/signup", fields));
  expect(answer.status).toBe(302);
  return cookieJar(answer);
}

/** What the server's session row keeps for this browser's pending sign-up. */
async function pendingOf(cookie: string): Promise<Record<string, unknown>> {
  const id = (await sessionCookie.parse(cookie)) as string;
  const row = await db.selectFrom("sessions").select("data").where("id", "=", id).executeTakeFirstOrThrow();
  return asRecord((JSON.parse(row.data) as { pendingSignup?: unknown }).pendingSignup);
}

function attemptRows(email: string) {
  return db.selectFrom("oneTimeCodes").selectAll().where("email", "=", email).where("purpose", "=", "signup").orderBy("id").execute();
}

/** The answer every unknown (guessed, ended, or browser-bound) attempt gets from the API. */
function expectUnknownAttempt(answer: Answer) {
  const body = expectApiError(answer, 404);
  expect(body).toEqual({ message: UNKNOWN_ATTEMPT, errors: { attemptId: UNKNOWN_ATTEMPT } });
}

/** Post the OTP form from the browser, the code in four boxes. */
function browserVerify(email: string, code: string, cookie: string) {
  const body = new URLSearchParams({ email, intent: "verify" });
  for (const digit of code) body.append("otp", digit);
  const request = formRequest("/verify-otp", {}, { Cookie: cookie });
  return call(verifyOtp.action, new Request(request.url, { method: "POST", headers: request.headers, body: body.toString() }));
}

codesNeverRepeat();

describe("codesNeverRepeat (test support)", () => {
  it("draws codes at random, none equal to the one before (unpatched, 20,000 draws would repeat one in about 86 runs of 100)", () => {
    const draws = Array.from({ length: 20_000 }, () => crypto.randomInt(0, 10_000));
    expect(draws.filter((code, i) => i > 0 && code === draws[i - 1])).toEqual([]);
    expect(new Set(draws).size).toBeGreaterThan(8_000);
  });
});

describe("attempt handles", () => {
  it("are 128 random bits (22 base64url characters), differ between sign-ups, and are not the row's id", async () => {
    const email = freshEmail("handle-format");
    const first = handleOf(await apiRegistration(email));
    const second = handleOf(await apiRegistration(email));
    for (const handle of [first, second]) expect(handle).toMatch(HANDLE);
    expect(Buffer.from(first, "base64url")).toHaveLength(16);
    expect(second).not.toBe(first);
    // Not a counter: neither is a number, nor one more than the other.
    expect(Number.isNaN(Number(first))).toBe(true);
    expect(Number.isNaN(Number(second))).toBe(true);

    const rows = await attemptRows(email);
    expect(rows.map((r) => r.handle)).toEqual([first, second]);
    // The internal row id is not what the client holds, and the answer carries nothing else.
    for (const [i, row] of rows.entries()) expect([first, second][i]).not.toBe(String(row.id));
    const answer = await apiRegistration(freshEmail("handle-shape"));
    expect(Object.keys(asRecord(answer.body)).sort()).toEqual(["attemptId", "message", "success"]);
  });

  it("a browser's session keeps its attempt's handle, and the pages never send it to the browser", async () => {
    const email = freshEmail("handle-web");
    const cookie = await browserSignup(email);
    const [row] = await attemptRows(email);
    const pending = await pendingOf(cookie);
    expect(pending.attemptId).toMatch(HANDLE);
    expect(pending.attemptId).toBe(row!.handle);

    const headers = { Cookie: cookie };
    const otpPage = await call(verifyOtp.loader, getRequest(`/verify-otp?email=${encodeURIComponent(email)}`, headers));
    const formPage = await call(signup.loader, getRequest("/signup", headers));
    for (const page of [otpPage, formPage]) {
      expect(asRecord(page.body).pending).toEqual({ name: "Web Customer", email, mobile: null });
      expect(JSON.stringify(page.body)).not.toContain(String(pending.attemptId));
    }
  });
});

describe("a sign-up made in the browser is out of the API's reach", () => {
  it("verifyOtp with its handle and the right code answers as for an unknown attempt: no account, no try counted", async () => {
    const email = freshEmail("bound-verify");
    const cookie = await browserSignup(email);
    const handle = (await pendingOf(cookie)).attemptId as string;
    const code = await latestCode(email);
    const [before] = await attemptRows(email);

    expectUnknownAttempt(await apiVerify({ email, otp: code, attemptId: handle }));
    expect(await db.selectFrom("users").select("id").where("email", "=", email).execute()).toEqual([]);
    expect(await attemptRows(email)).toEqual([before]);

    // Its own browser still confirms it with the same code.
    const verified = await browserVerify(email, code, cookie);
    expect(verified.status).toBe(302);
    expect(verified.headers.get("Location")).toBe("/profile");
  });

  it("the answer is the very answer a guessed handle gets (nothing to tell the two apart)", async () => {
    const email = freshEmail("bound-same");
    const cookie = await browserSignup(email);
    const handle = (await pendingOf(cookie)).attemptId as string;
    const code = await latestCode(email);
    const guessed = crypto.randomBytes(16).toString("base64url");
    const bound = await apiVerify({ email, otp: code, attemptId: handle });
    const unknown = await apiVerify({ email, otp: code, attemptId: guessed });
    expect(bound.status).toBe(unknown.status);
    expect(bound.body).toEqual(unknown.body);
    expectUnknownAttempt(bound);
  });

  it("resendOtp with its handle renews nothing: the unknown-attempt answer, no mail, the code unchanged", async () => {
    const email = freshEmail("bound-resend");
    const cookie = await browserSignup(email);
    const handle = (await pendingOf(cookie)).attemptId as string;
    const code = await latestCode(email);
    const [before] = await attemptRows(email);

    expectUnknownAttempt(await apiResend({ email, attemptId: handle }));
    await settleMail();
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await attemptRows(email)).toEqual([before]);
    // The browser's own code still works there.
    expect((await browserVerify(email, code, cookie)).headers.get("Location")).toBe("/profile");
  });

  it("without a handle the API does not see it either (the code is just wrong; resend mails nothing)", async () => {
    const email = freshEmail("bound-nohandle");
    await browserSignup(email);
    const code = await latestCode(email);
    expect(expectApiError(await apiVerify({ email, otp: code }), 400).errors).toHaveProperty("otp");
    expect((await apiResend({ email })).status).toBe(200);
    await settleMail();
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await db.selectFrom("users").select("id").where("email", "=", email).execute()).toEqual([]);
  });
});

describe("API sign-ups", () => {
  it("verify through the API with their handle; resend with it renews that attempt", async () => {
    const email = freshEmail("api-ok");
    const handle = handleOf(await apiRegistration(email, "Api Person"));
    const first = await latestCode(email);
    expect((await apiResend({ email, attemptId: handle })).status).toBe(200);
    await settleMail();
    expect(await mailsTo(email)).toHaveLength(2);
    const renewed = await latestCode(email);
    expect(renewed, "a new code was mailed (codesNeverRepeat)").not.toBe(first);
    expectApiError(await apiVerify({ email, otp: first, attemptId: handle }), 400);

    const answer = await apiVerify({ email, otp: renewed, attemptId: handle });
    expect(answer.status).toBe(200);
    expect(asRecord(asRecord(answer.body).user)).toMatchObject({ name: "Api Person", email });
    expect(typeof asRecord(answer.body).token).toBe("string");
  });

  it("a guessed handle (random, another email's, or a sequential number) gets the unknown-attempt error", async () => {
    const email = freshEmail("api-guess");
    const handle = handleOf(await apiRegistration(email));
    const code = await latestCode(email);
    const [row] = await attemptRows(email);
    const other = handleOf(await apiRegistration(freshEmail("api-guess-other")));
    const guesses = [crypto.randomBytes(16).toString("base64url"), other, row!.id, String(row!.id), row!.id + 1, "x"];
    for (const attemptId of guesses) expectUnknownAttempt(await apiVerify({ email, otp: code, attemptId }));
    // Resends are limited to 3 per email in 15 minutes (docs/product.md): three guesses.
    for (const attemptId of guesses.slice(0, 3)) expectUnknownAttempt(await apiResend({ email, attemptId }));
    await settleMail();
    expect(await mailsTo(email)).toHaveLength(1);
    // None of it touched the real attempt: no try counted, no code renewed, and it still verifies.
    expect(await attemptRows(email)).toEqual([row]);
    expect((await apiVerify({ email, otp: code, attemptId: handle })).status).toBe(200);
  });

  it("an attemptId that is not text or a number is refused as bad input (400)", async () => {
    const email = freshEmail("api-badtype");
    for (const attemptId of [{ id: 1 }, [1], true, "a".repeat(200)]) {
      const body = expectApiError(await apiVerify({ email, otp: "1234", attemptId }), 400);
      expect(body.errors).toHaveProperty("attemptId");
    }
  });
});

describe("migration 2026-11-23-0005-signup-attempt-handles", () => {
  it("ends the sign-up attempts made before it (they have no handle) and keeps reset links; down and up again", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0005.up>[0];
    const email = freshEmail("migration");
    await m0005.down(raw);
    try {
      const now = new Date().toISOString();
      const later = new Date(Date.now() + 600_000).toISOString();
      for (const [purpose, payload] of [
        ["signup", "{}"],
        ["password_reset", null],
      ]) {
        await sql`insert into one_time_codes (email, purpose, code_hash, attempts, expires_at, created_at, payload)
          values (${email}, ${purpose}, ${"0".repeat(64)}, 0, ${later}, ${now}, ${payload})`.execute(db);
      }
    } finally {
      await m0005.up(raw);
    }
    const left = await db.selectFrom("oneTimeCodes").select(["purpose", "handle"]).where("email", "=", email).execute();
    expect(left).toEqual([{ purpose: "password_reset", handle: null }]);
    // The handle is unique.
    const now = new Date().toISOString();
    const insert = () =>
      db
        .insertInto("oneTimeCodes")
        .values({
          email,
          purpose: "signup",
          codeHash: "1".repeat(64),
          expiresAt: now,
          createdAt: now,
          payload: "{}",
          handle: "h".repeat(22),
        })
        .execute();
    await insert();
    await expect(insert()).rejects.toThrow();
  });
});
