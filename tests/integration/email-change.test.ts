// Changing the account's email needs proof (ADR 0006): the current password, and a
// 4-digit code mailed to the new address; the old address is told once the change is made.
// Before, a stolen session or token could move the account to any address (then reset the
// password there: a permanent takeover), and anyone could claim an address they do not own.
// Through the profile page (as a browser without JavaScript posts it) and the API (bearer token).
import crypto from "node:crypto";
import { sql } from "kysely";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as m0008 from "../../migrations/2026-11-23-0008-email-change";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { issueToken } from "~/lib/api-tokens.server";
import { publicOrigin, settleMail } from "~/lib/mail.server";
import { findResetToken, issueResetToken, LIVE_RESET_LINKS, MAX_CODE_ATTEMPTS } from "~/lib/one-time-codes.server";
import { clientOf, LIMITS, UNKNOWN_CLIENT } from "~/lib/rate-limit.server";
import { updateUserByAdmin } from "~/models/users/admin.server";
import type { User } from "~/models/users/users.server";
import { changePassword, requestPasswordReset, resetPassword } from "~/models/users/password.server";
import { confirmEmailChange, updateProfile } from "~/models/users/profile.server";
import { registerAccount, verifySignup } from "~/models/users/signup.server";
import * as confirmEmail from "~/routes/api.auth.confirm-email";
import * as authProfile from "~/routes/api.auth.profile";
import * as login from "~/routes/login";
import * as profile from "~/routes/profile";
import * as profileDetails from "~/routes/profile.details";
import * as profileCancelEmail from "~/routes/profile.email.cancel";
import * as profileConfirmEmail from "~/routes/profile.email.confirm";
import * as profileResendEmail from "~/routes/profile.email.resend";
import { MESSAGES } from "~/utils/account-schemas";
import { latestCode, latestEmailChangeCode, mailsTo } from "../support/outbox";
import { ORIGIN, formRequest, getRequest, jsonRequest } from "../support/requests";
import { newCustomer, newCustomers } from "../support/orders";
import type { Answer } from "../support/route-calls";
import { asRecord, call, cookieJar, expectApiError } from "../support/route-calls";
import { codesNeverRepeat } from "../support/codes";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

// Registrations, logins and password checks each cost a scrypt hash (~0.3 s, more when busy).
vi.setConfig({ testTimeout: 60_000 });

const PASSWORD = "secret12";
const PROFILE_FAILED = "Failed to update profile. Please try again.";
/** What the customer reads (docs/api.md, Accounts). */
const TEXT = {
  needsPassword: "Please enter your current password to change your email",
  wrongCode: "Invalid code. Please check the code and try again.",
  lastWrong: "Invalid code. That was the last try for this code: please send a new one.",
  dead: "Too many wrong tries. This code no longer works: please send a new one.",
  expired: "This code has expired. Please send a new one.",
  noChange: "No email change is waiting for a code. Please enter your new email again.",
  takenMeanwhile: "This email address is now used by another account, so your email was not changed. Please choose another one.",
};

beforeAll(async () => {
  await ready;
});

let counter = 0;
const freshEmail = (tag: string) => `${tag}-${++counter}-${crypto.randomBytes(3).toString("hex")}@example.com`;

async function registerVerified(email: string, name = "Email Mover", mobile: string | null = null): Promise<User> {
  const client = clientOf(formRequest("/signup", {}));
  await registerAccount({ name, email, mobile, password: PASSWORD }, client);
  return verifySignup(email, await latestCode(email), null, client);
}

/** A browser signed in through the login page: its Cookie header. */
async function signedIn(email: string, password = PASSWORD): Promise<string> {
  const answer = await call(login.action, formRequest("/login", { email, password }));
  expect([302, 303]).toContain(answer.status);
  return cookieJar(answer);
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The profile page's forms, each a route of its own: its module and the URL it posts to. */
const FORMS = {
  details: [profileDetails, "/profile/details"],
  confirm: [profileConfirmEmail, "/profile/email/confirm"],
  resend: [profileResendEmail, "/profile/email/resend"],
  cancel: [profileCancelEmail, "/profile/email/cancel"],
} as const;

/** A post of one of the profile page's forms; a list value repeats its key (the four code boxes). */
function postProfile(form: keyof typeof FORMS, cookie: string, fields: Record<string, string | string[]> = {}) {
  const [route, path] = FORMS[form];
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(key, v);
  const headers = { Host: "localhost:3000", Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie };
  return call(route.action, new Request(`${ORIGIN}${path}`, { method: "POST", headers, body: body.toString() }));
}

const saveOnPage = (cookie: string, fields: Record<string, string>) => postProfile("details", cookie, { mobile: "", ...fields });
const confirmOnPage = (cookie: string, code: string) => postProfile("confirm", cookie, { code: [...code] });

async function profilePage(cookie: string) {
  const answer = await call(profile.loader, getRequest("/profile", { Cookie: cookie }));
  expect(answer.status).toBe(200);
  return asRecord(answer.body) as { user: User; emailChange: { pendingEmail: string } | null };
}

const put = (token: string, body: unknown) => call(authProfile.action, jsonRequest("PUT", "/api/auth/profile", body, bearer(token)));
const apiUser = async (token: string) =>
  asRecord((await call(authProfile.loader, getRequest("/api/auth/profile", bearer(token)))).body).user;
const confirmThroughApi = (body: unknown, headers: Record<string, string>) =>
  call(confirmEmail.action, jsonRequest("POST", "/api/auth/confirm-email", body, headers));

function expectRedirect(answer: Answer, location: string) {
  expect([302, 303]).toContain(answer.status);
  expect(answer.headers.get("Location")).toBe(location);
}

function failure(answer: Answer, status: number) {
  expect(answer.status).toBe(status);
  const body = asRecord(answer.body);
  expect(body.ok).toBe(false);
  return body as { formError: string; fieldErrors: Record<string, string>; values?: Record<string, string> };
}

async function userRow(id: number) {
  return db.selectFrom("users").select(["name", "email", "mobile"]).where("id", "=", id).executeTakeFirstOrThrow();
}

/** The subjects of the mails sent to `to`, once the background mails are out. */
async function subjectsTo(to: string): Promise<string[]> {
  await settleMail();
  return (await mailsTo(to)).map((m) => m.subject);
}

/** A reset link (its token) for the address, as 'Forgot password' would mail one. */
async function liveResetToken(email: string): Promise<string> {
  await requestPasswordReset(email, publicOrigin(), clientOf(formRequest("/forgot-password", {})));
  await settleMail();
  const mail = (await mailsTo(email)).filter((m) => /reset your/i.test(m.subject)).at(-1);
  const token = /token=(\S+)/.exec(mail?.text ?? "")?.[1];
  expect(token).toBeDefined();
  return decodeURIComponent(token!);
}

/** A code that differs from `code` (for a wrong try). */
const otherThan = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, "0");

codesNeverRepeat();

describe("the profile page", () => {
  it("a session alone cannot change the email: without the current password → 400, nothing saved, nothing mailed", async () => {
    const email = freshEmail("nopass");
    const user = await registerVerified(email, "Session Only", "9000000011");
    const cookie = await signedIn(email);
    const target = freshEmail("nopass-target");

    const refused = failure(await saveOnPage(cookie, { name: "Taken Over", email: target, mobile: "9111111111" }), 400);
    expect(refused.formError).toBe(PROFILE_FAILED);
    expect(refused.fieldErrors).toEqual({ currentPassword: TEXT.needsPassword });
    expect(refused.values).toMatchObject({ email: target, name: "Taken Over" });
    // Neither the email nor the name and mobile sent with it.
    expect(await userRow(user.id)).toEqual({ name: "Session Only", email, mobile: "9000000011" });
    expect(await subjectsTo(target)).toEqual([]);
    expect((await profilePage(cookie)).emailChange).toBeNull();
  });

  it("a wrong current password → 400 beside the field, nothing saved", async () => {
    const email = freshEmail("wrongpass");
    const user = await registerVerified(email, "Wrong Pass");
    const cookie = await signedIn(email);
    const target = freshEmail("wrongpass-target");
    const refused = failure(
      await saveOnPage(cookie, { name: "Renamed", email: target, mobile: "9111111112", currentPassword: "not-my-password" }),
      400,
    );
    expect(refused.formError).toBe(PROFILE_FAILED);
    expect(refused.fieldErrors).toEqual({ currentPassword: MESSAGES.wrongCurrent });
    // The password is never sent back to the page.
    expect(JSON.stringify(refused)).not.toContain("not-my-password");
    expect(await userRow(user.id)).toEqual({ name: "Wrong Pass", email, mobile: null });
    expect(await subjectsTo(target)).toEqual([]);
  });

  it("the same email needs no password: name and mobile are saved as before", async () => {
    const email = freshEmail("same");
    const user = await registerVerified(email, "Same Email");
    const cookie = await signedIn(email);
    expectRedirect(await saveOnPage(cookie, { name: "Same Email Two", email: email.toUpperCase(), mobile: "9222222222" }), "/profile");
    expect(await userRow(user.id)).toEqual({ name: "Same Email Two", email, mobile: "9222222222" });
    expect((await profilePage(cookie)).emailChange).toBeNull();
  });

  it("the right password: name and mobile saved, a code mailed to the new address; the email changes only with the code", async () => {
    const email = freshEmail("mover");
    const user = await registerVerified(email, "Page Mover");
    const cookie = await signedIn(email);
    const target = freshEmail("mover-target");
    const oldLink = await liveResetToken(email);
    // A reset link for the new address (an account that held it before, say) ends too.
    const targetLink = await issueResetToken(db, target);

    const saved = await saveOnPage(cookie, { name: "Page Mover Two", email: target, mobile: "9333333333", currentPassword: PASSWORD });
    expectRedirect(saved, "/profile");
    expect(await userRow(user.id)).toEqual({ name: "Page Mover Two", email, mobile: "9333333333" });
    const page = await profilePage(cookie);
    expect(page.user.email).toBe(email);
    expect(page.emailChange).toEqual({ pendingEmail: target });
    const code = await latestEmailChangeCode(target);
    // The new address is not verified yet: the mail carries nothing the account holder typed.
    const [toTarget] = await mailsTo(target);
    expect(toTarget!.text).toMatch(/^Hello,/);
    expect(JSON.stringify(toTarget)).not.toMatch(/Mover/);
    // Nothing yet for the old address, and its reset link still works until the change is made.
    expect((await subjectsTo(email)).some((s) => /email address was changed/i.test(s))).toBe(false);
    expect(await findResetToken(db, oldLink)).not.toBeNull();

    // A wrong code: 400 beside the code field; the email stays.
    const wrong = failure(await confirmOnPage(cookie, otherThan(code)), 400);
    expect(wrong.fieldErrors).toEqual({ code: TEXT.wrongCode });
    expect((await userRow(user.id)).email).toBe(email);

    // The right code changes it.
    expectRedirect(await confirmOnPage(cookie, code), "/profile");
    expect(await userRow(user.id)).toEqual({ name: "Page Mover Two", email: target, mobile: "9333333333" });
    expect(await profilePage(cookie)).toMatchObject({ user: { email: target }, emailChange: null });
    // The old address is told; reset links for either address are dead.
    expect((await subjectsTo(email)).filter((s) => /email address was changed/i.test(s))).toHaveLength(1);
    expect(await findResetToken(db, oldLink)).toBeNull();
    expect(await findResetToken(db, targetLink)).toBeNull();
    // The new address logs in, the old one no longer does; this browser stays signed in.
    expect([302, 303]).toContain((await call(login.action, formRequest("/login", { email: target, password: PASSWORD }))).status);
    expect((await call(login.action, formRequest("/login", { email, password: PASSWORD }))).status).toBe(401);
    expect((await profilePage(cookie)).user.id).toBe(user.id);
    // The code works once.
    expect(failure(await confirmOnPage(cookie, code), 400).fieldErrors).toEqual({ code: TEXT.noChange });
  });

  it("a resend mails a new code (the old one stops working); cancel ends the change", async () => {
    const email = freshEmail("resend");
    const user = await registerVerified(email, "Resender");
    const cookie = await signedIn(email);
    const target = freshEmail("resend-target");
    expectRedirect(await saveOnPage(cookie, { name: "Resender", email: target, currentPassword: PASSWORD }), "/profile");
    const first = await latestEmailChangeCode(target);

    expectRedirect(await postProfile("resend", cookie), "/profile");
    const second = await latestEmailChangeCode(target);
    expect(await mailsTo(target)).toHaveLength(2);
    expect(second, "a new code (codesNeverRepeat)").not.toBe(first);
    expect(failure(await confirmOnPage(cookie, first), 400).fieldErrors).toEqual({ code: TEXT.wrongCode });

    expectRedirect(await postProfile("cancel", cookie), "/profile");
    expect((await profilePage(cookie)).emailChange).toBeNull();
    expect(failure(await confirmOnPage(cookie, second), 400).fieldErrors).toEqual({ code: TEXT.noChange });
    expect((await userRow(user.id)).email).toBe(email);
    // With nothing waiting, a resend says so.
    expect(failure(await postProfile("resend", cookie), 400).formError).toBe(TEXT.noChange);
  });

  it("a malformed code → 400 on the code field", async () => {
    const email = freshEmail("malformed");
    await registerVerified(email);
    const cookie = await signedIn(email);
    const bad = failure(await postProfile("confirm", cookie, { code: ["1", "2"] }), 400);
    expect(bad.fieldErrors).toEqual({ code: "Please enter the 4-digit code" });
  });
});

describe("the API (bearer token)", () => {
  it("PUT with a new email needs currentPassword, answers the old email with emailChange; POST confirm-email makes it", async () => {
    const email = freshEmail("api");
    const user = await registerVerified(email, "Api Mover", "9444444444");
    const token = await issueToken(user.id);
    const target = freshEmail("api-target");

    const missing = expectApiError(await put(token, { name: "Api Thief", email: target }), 400);
    expect(missing).toEqual({ message: TEXT.needsPassword, errors: { currentPassword: TEXT.needsPassword } });
    const wrong = expectApiError(await put(token, { name: "Api Thief", email: target, currentPassword: "guess-guess" }), 400);
    expect(wrong.errors).toEqual({ currentPassword: MESSAGES.wrongCurrent });
    expect(await userRow(user.id)).toEqual({ name: "Api Mover", email, mobile: "9444444444" });
    expect(await subjectsTo(target)).toEqual([]);

    const started = await put(token, { name: "Api Mover Two", email: target, currentPassword: PASSWORD });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      user: { id: user.id, name: "Api Mover Two", email, mobile: "9444444444" },
      emailChange: { pendingEmail: target },
    });
    expect(await apiUser(token)).toMatchObject({ email });
    const code = await latestEmailChangeCode(target);

    const badCode = expectApiError(await confirmThroughApi({ code: otherThan(code) }, bearer(token)), 400);
    expect(badCode.errors).toEqual({ code: TEXT.wrongCode });
    expect(expectApiError(await confirmThroughApi({}, bearer(token)), 400).errors).toEqual({ code: "Please enter the 4-digit code" });
    expectApiError(await confirmThroughApi({ code }, {}), 401);

    const confirmed = await confirmThroughApi({ code }, bearer(token));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ user: { id: user.id, name: "Api Mover Two", email: target, mobile: "9444444444" } });
    expect(await apiUser(token)).toMatchObject({ email: target });
    expect((await subjectsTo(email)).some((s) => /email address was changed/i.test(s))).toBe(true);
    // Single use.
    expect(expectApiError(await confirmThroughApi({ code }, bearer(token)), 400).errors).toEqual({ code: TEXT.noChange });
    // The same email again needs no password (name and mobile only), and starts nothing.
    const renamed = await put(token, { name: "Api Mover Three" });
    expect(renamed.body).toEqual({ user: { id: user.id, name: "Api Mover Three", email: target, mobile: "9444444444" } });
  });

  it("only POST confirms; the session cookie works as well as a token (the same verb as the page)", async () => {
    expectApiError(await call(confirmEmail.loader, getRequest("/api/auth/confirm-email")), 405);
    const email = freshEmail("api-cookie");
    const user = await registerVerified(email);
    const cookie = await signedIn(email);
    const target = freshEmail("api-cookie-target");
    expectRedirect(await saveOnPage(cookie, { name: "Email Mover", email: target, currentPassword: PASSWORD }), "/profile");
    const confirmed = await confirmThroughApi({ code: await latestEmailChangeCode(target) }, { Cookie: cookie });
    expect(asRecord(confirmed.body).user).toEqual({ id: user.id, name: "Email Mover", email: target, mobile: null });
  });

  it("a code confirms only its own account's change", async () => {
    const a = await registerVerified(freshEmail("owner-a"));
    const b = await registerVerified(freshEmail("owner-b"));
    const target = freshEmail("owner-target");
    expect((await put(await issueToken(a.id), { email: target, currentPassword: PASSWORD })).status).toBe(200);
    const code = await latestEmailChangeCode(target);
    expect(expectApiError(await confirmThroughApi({ code }, bearer(await issueToken(b.id))), 400).errors).toEqual({ code: TEXT.noChange });
    expect((await userRow(b.id)).email).not.toBe(target);
    expect((await confirmThroughApi({ code }, bearer(await issueToken(a.id)))).status).toBe(200);
  });
});

describe("conflicts, expiry and limits", () => {
  it("an email taken when asked → 409 (after the password); taken by the time of the code → 409, the email stays", async () => {
    const taken = freshEmail("taken");
    await registerVerified(taken);
    const email = freshEmail("conflict");
    const user = await registerVerified(email, "Conflicted");
    const token = await issueToken(user.id);
    // Without the password the taken address is not even looked at.
    expect(expectApiError(await put(token, { email: taken }), 400).errors).toEqual({ currentPassword: TEXT.needsPassword });
    expect(expectApiError(await put(token, { email: taken, currentPassword: PASSWORD }), 409).errors).toEqual({
      email: MESSAGES.emailInUse,
    });

    const target = freshEmail("conflict-target");
    expect((await put(token, { email: target, currentPassword: PASSWORD })).status).toBe(200);
    const code = await latestEmailChangeCode(target);
    // Someone signs up with that address before the code comes back.
    const squatter = await registerVerified(target, "Quick Squatter");
    const conflict = expectApiError(await confirmThroughApi({ code }, bearer(token)), 409);
    expect(conflict.message).toBe(TEXT.takenMeanwhile);
    expect((await userRow(user.id)).email).toBe(email);
    expect((await userRow(squatter.id)).email).toBe(target);
    expect((await subjectsTo(email)).some((s) => /email address was changed/i.test(s))).toBe(false);
  });

  it("an expired code → 400; a resend gives one that works", async () => {
    const email = freshEmail("expiry");
    const user = await registerVerified(email);
    const token = await issueToken(user.id);
    const target = freshEmail("expiry-target");
    expect((await put(token, { email: target, currentPassword: PASSWORD })).status).toBe(200);
    const code = await latestEmailChangeCode(target);
    await db
      .updateTable("oneTimeCodes")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("email", "=", target)
      .execute();
    expect(expectApiError(await confirmThroughApi({ code }, bearer(token)), 400).errors).toEqual({ code: TEXT.expired });
    expect((await userRow(user.id)).email).toBe(email);

    const cookie = await signedIn(email);
    expectRedirect(await postProfile("resend", cookie), "/profile");
    expect((await confirmThroughApi({ code: await latestEmailChangeCode(target) }, bearer(token))).status).toBe(200);
    expect((await userRow(user.id)).email).toBe(target);
  });

  it(`${MAX_CODE_ATTEMPTS} wrong codes kill the code, even for the right digits; a new request replaces the old code`, async () => {
    const email = freshEmail("guesses");
    const user = await registerVerified(email);
    const token = await issueToken(user.id);
    const target = freshEmail("guesses-target");
    expect((await put(token, { email: target, currentPassword: PASSWORD })).status).toBe(200);
    const code = await latestEmailChangeCode(target);
    const messages: string[] = [];
    for (let i = 1; i <= MAX_CODE_ATTEMPTS; i++) {
      messages.push(expectApiError(await confirmThroughApi({ code: otherThan(code) }, bearer(token)), 400).message);
    }
    expect(messages.at(-1)).toBe(TEXT.lastWrong);
    expect(expectApiError(await confirmThroughApi({ code }, bearer(token)), 400).message).toBe(TEXT.dead);
    expect((await userRow(user.id)).email).toBe(email);

    // Asking again (here for another address) starts afresh; the first address's code is over.
    const second = freshEmail("guesses-second");
    expect((await put(token, { email: second, currentPassword: PASSWORD })).status).toBe(200);
    expect((await confirmThroughApi({ code: await latestEmailChangeCode(second) }, bearer(token))).status).toBe(200);
    expect((await userRow(user.id)).email).toBe(second);
  });

  it("confirmations are limited per account (429)", async () => {
    const user = await registerVerified(freshEmail("confirm-limit"));
    const token = await issueToken(user.id);
    const target = freshEmail("confirm-limit-target");
    expect((await put(token, { email: target, currentPassword: PASSWORD })).status).toBe(200);
    const code = await latestEmailChangeCode(target);
    const limit = LIMITS.emailConfirm.max;
    for (let i = 0; i < limit; i++) expect((await confirmThroughApi({ code: otherThan(code) }, bearer(token))).status).toBe(400);
    const limited = await confirmThroughApi({ code }, bearer(token));
    expectApiError(limited, 429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it(`and over a day, however many quarter hours pass: ${LIMITS.emailConfirmDay.max} tries`, async () => {
    const user = await registerVerified(freshEmail("confirm-day"));
    const token = await issueToken(user.id);
    const target = freshEmail("confirm-day-target");
    expect((await put(token, { email: target, currentPassword: PASSWORD })).status).toBe(200);
    let code = await latestEmailChangeCode(target);
    for (let i = 0; i < LIMITS.emailConfirmDay.max; i++) {
      if (i % 4 === 0) {
        // A quarter hour passes, and the code is resent (a new code, its tries start again).
        await db
          .deleteFrom("rateLimits")
          .where("key", "in", [`email-confirm:user:${user.id}`, `email-code:user:${user.id}`])
          .execute();
        // and the new address's hour of mailed codes too (email-code-to, counted per address)
        await db.deleteFrom("rateLimits").where("key", "like", "email-code-to%").execute();
        expectRedirect(await postProfile("resend", await signedIn(user.email)), "/profile");
        code = await latestEmailChangeCode(target);
      }
      expect((await confirmThroughApi({ code: otherThan(code) }, bearer(token))).status).toBe(400);
    }
    await db.deleteFrom("rateLimits").where("key", "=", `email-confirm:user:${user.id}`).execute();
    expectApiError(await confirmThroughApi({ code }, bearer(token)), 429);
    expect(await apiUser(token)).toMatchObject({ email: user.email });
  });

  it("codes mailed to new addresses are limited per account (429), resends included", async () => {
    const user = await registerVerified(freshEmail("code-limit"));
    const token = await issueToken(user.id);
    const cookie = await signedIn(user.email);
    const limit = LIMITS.emailCode.max;
    expect((await put(token, { email: freshEmail("code-limit-a"), currentPassword: PASSWORD })).status).toBe(200);
    for (let i = 1; i < limit; i++) expectRedirect(await postProfile("resend", cookie), "/profile");
    expectApiError(await put(token, { email: freshEmail("code-limit-b"), currentPassword: PASSWORD }), 429);
    expect(failure(await postProfile("resend", cookie), 429).formError).toMatch(/too many/i);
  });
});

describe("staff", () => {
  it("the admin's user edit changes the email at once (audited), tells the old address, and ends a change waiting", async () => {
    const email = freshEmail("staff");
    const user = await registerVerified(email, "Staff Edited");
    const token = await issueToken(user.id);
    const pending = freshEmail("staff-pending");
    expect((await put(token, { email: pending, currentPassword: PASSWORD })).status).toBe(200);
    const code = await latestEmailChangeCode(pending);

    const moved = freshEmail("staff-moved");
    await updateUserByAdmin(user.id, { name: "Staff Edited", email: moved, mobile: null }, BUILTIN_OWNER);
    expect((await userRow(user.id)).email).toBe(moved);
    const audit = await db
      .selectFrom("auditLog")
      .select("summary")
      .where("entity", "=", "user")
      .where("entityId", "=", String(user.id))
      .execute();
    expect(audit.map((a) => a.summary).join("\n")).toContain(moved);
    expect((await subjectsTo(email)).some((s) => /email address was changed/i.test(s))).toBe(true);
    // The customer's change, asked before the staff's, no longer applies.
    expect(expectApiError(await confirmThroughApi({ code }, bearer(token)), 400).errors).toEqual({ code: TEXT.noChange });
    expect((await userRow(user.id)).email).toBe(moved);
  });
});

describe("migration 2026-11-23-0008-email-change", () => {
  it("down ends the changes waiting and refuses the purpose; up allows it, keeping other codes, never reusing an id", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0008.up>[0];
    const user = await registerVerified(freshEmail("migration"));
    const target = freshEmail("migration-target");
    expect((await put(await issueToken(user.id), { email: target, currentPassword: PASSWORD })).status).toBe(200);
    const link = await liveResetToken(user.email);
    const insert = (email: string) =>
      sql`insert into one_time_codes (email, purpose, code_hash, attempts, expires_at, created_at)
        values (${email}, 'email_change', ${"0".repeat(64)}, 0, ${new Date().toISOString()}, ${new Date().toISOString()})`.execute(db);
    // The highest id so far belongs to a row that is gone: the rebuilt table must not hand it out again.
    const gone = Number((await issueResetToken(db, freshEmail("migration-gone"))).split(".")[0]);
    await db.deleteFrom("oneTimeCodes").where("id", "=", gone).execute();

    await m0008.down(raw);
    try {
      expect(await db.selectFrom("oneTimeCodes").select("id").where("email", "=", target).execute()).toEqual([]);
      await expect(insert(target)).rejects.toThrow();
      expect(await findResetToken(db, link)).not.toBeNull();
    } finally {
      await m0008.up(raw);
    }
    expect(Number((await issueResetToken(db, freshEmail("migration-after"))).split(".")[0])).toBeGreaterThan(gone);
    await insert(target);
    expect(await findResetToken(db, link)).not.toBeNull();
    await expect(
      sql`insert into one_time_codes (email, purpose, code_hash, attempts, expires_at, created_at)
        values (${target}, 'something_else', ${"0".repeat(64)}, 0, ${new Date().toISOString()}, ${new Date().toISOString()})`.execute(db),
    ).rejects.toThrow();
  });
});

describe("the current password cannot be guessed from a stolen session over days", () => {
  it("wrong current passwords count against a day's cap per account (email and password changes together); right ones do not", async () => {
    const { user, email } = await newCustomer("current-pw-day");
    const saved = LIMITS.currentPasswordDay.max;
    LIMITS.currentPasswordDay.max = 3;
    try {
      const profileOf = (newEmail: string) => ({ name: user.name, email: newEmail, mobile: null });
      // Right passwords, more than the cap: each is given back.
      for (let i = 0; i < 4; i++) await updateProfile(user.id, profileOf(`cp-day-${i}-${Date.now()}@example.com`), PASSWORD);
      await settleMail();
      await expect(updateProfile(user.id, profileOf(`cp-day-x-${Date.now()}@example.com`), "wrong-1")).rejects.toMatchObject({
        status: 400,
      });
      await expect(changePassword(user.id, { currentPassword: "wrong-2", newPassword: "another-pass-1" }, undefined)).rejects.toMatchObject(
        { status: 400 },
      );
      await expect(updateProfile(user.id, profileOf(`cp-day-y-${Date.now()}@example.com`), "wrong-3")).rejects.toMatchObject({
        status: 400,
      });
      // The cap is spent: even the right password waits for tomorrow (a reset link still works).
      await expect(changePassword(user.id, { currentPassword: PASSWORD, newPassword: "another-pass-1" }, undefined)).rejects.toMatchObject({
        status: 429,
      });
      expect((await db.selectFrom("users").select("email").where("id", "=", user.id).executeTakeFirstOrThrow()).email).toBe(email);
    } finally {
      LIMITS.currentPasswordDay.max = saved;
    }
  });
});

describe("reset links a stranger cannot void", () => {
  it(`a new link ends only the ones past the newest ${LIVE_RESET_LINKS}; setting a password with any ends them all`, async () => {
    const { email } = await newCustomer("reset-live");
    const links: string[] = [];
    for (let i = 0; i < LIVE_RESET_LINKS + 1; i++) links.push(await issueResetToken(db, email));
    expect(await findResetToken(db, links[0]!)).toBeNull();
    for (const link of links.slice(1)) expect(await findResetToken(db, link)).toMatchObject({ email });
    await resetPassword(links[2]!, "brand-new-pass-1", UNKNOWN_CLIENT);
    for (const link of links) expect(await findResetToken(db, link)).toBeNull();
    await settleMail();
  });
});

describe("throwaway accounts cannot pool their limits on one new address", () => {
  // Before, every limit on an email change counted per account: each throwaway account had its own
  // codes mailed to the address and its own day of tries on them, so a few hundred accounts a day
  // made a good chance of claiming an address nobody had proven, and mailed it without end.
  const client = { ip: "198.51.100.77" };
  const profileOf = (user: User, email: string) => ({ name: user.name, email, mobile: null });

  it("codes mailed to one address count across the accounts asking for it", async () => {
    const target = freshEmail("pooled-mail");
    const [first, second] = await newCustomers("pooled-mail", 2);
    for (let i = 0; i < LIMITS.emailCodeTo.max; i++) await updateProfile(first!.user.id, profileOf(first!.user, target), PASSWORD, client);
    await expect(updateProfile(second!.user.id, profileOf(second!.user, target), PASSWORD, client)).rejects.toMatchObject({ status: 429 });
    await settleMail();
    expect(await mailsTo(target)).toHaveLength(LIMITS.emailCodeTo.max);
  });

  it("tries of the codes mailed to one address count across the accounts asking for it", async () => {
    const target = freshEmail("pooled-tries");
    const [first, second] = await newCustomers("pooled-tries", 2);
    await updateProfile(first!.user.id, profileOf(first!.user, target), PASSWORD, client);
    await updateProfile(second!.user.id, profileOf(second!.user, target), PASSWORD, client);
    await settleMail();
    const code = await latestEmailChangeCode(target);
    const wrong = code === "0000" ? "0001" : "0000";
    const saved = LIMITS.emailConfirmToDay.max;
    LIMITS.emailConfirmToDay.max = 4;
    try {
      for (let i = 0; i < 3; i++) await expect(confirmEmailChange(first!.user.id, wrong, client)).rejects.toMatchObject({ status: 400 });
      await expect(confirmEmailChange(second!.user.id, wrong, client)).rejects.toMatchObject({ status: 400 });
      // The address's tries are spent for the day, whichever account asks next.
      await expect(confirmEmailChange(second!.user.id, code, client)).rejects.toMatchObject({ status: 429 });
      expect((await db.selectFrom("users").select("email").where("id", "=", second!.user.id).executeTakeFirstOrThrow()).email).toBe(
        second!.email,
      );
    } finally {
      LIMITS.emailConfirmToDay.max = saved;
    }
  });
});
