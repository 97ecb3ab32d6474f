// The account API through the route modules: register → emailed code → verify → token, login,
// logout, profile, and the token on the cart API. A registration is only a sign-up attempt
// (a one_time_codes row) until its code is verified; the users row is made then.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import { publicOrigin } from "~/lib/mail.server";
import { AppError } from "~/lib/errors.server";
import { issueToken } from "~/lib/api-tokens.server";
import { settleMail } from "~/lib/mail.server";
import {
  CODE_MESSAGES,
  findResetToken,
  MAX_CODE_ATTEMPTS,
  RESET_INVALID,
  SEVERAL_WAITING,
  UNKNOWN_ATTEMPT,
} from "~/lib/one-time-codes.server";
import { clientOf, LIMITS } from "~/lib/rate-limit.server";
import type { User } from "~/models/users/users.server";
import { registerAccount, verifySignup } from "~/models/users/signup.server";
import { requestPasswordReset, resetPassword } from "~/models/users/password.server";
import * as authLogin from "~/routes/api.auth.login";
import * as authLogout from "~/routes/api.auth.logout";
import * as confirmEmail from "~/routes/api.auth.confirm-email";
import * as authProfile from "~/routes/api.auth.profile";
import * as authRegister from "~/routes/api.auth.register";
import * as cartAdd from "~/routes/api.cart.add";
import * as cartGet from "~/routes/api.cart.get";
import * as userLogin from "~/routes/api.user.auth.login";
import * as userLogout from "~/routes/api.user.auth.logout";
import * as userRegister from "~/routes/api.user.auth.register";
import * as resendOtp from "~/routes/api.user.auth.resendOtp";
import * as verifyOtp from "~/routes/api.user.auth.verifyOtp";
import { MESSAGES } from "~/utils/account-schemas";
import { withShopHashParams } from "../support/hash-params";
import { createTestItem } from "../support/items";
import { latestCode, latestEmailChangeCode, latestResetLink, mailsTo } from "../support/outbox";
import { ORIGIN, getRequest, jsonRequest } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, expectApiError } from "../support/route-calls";
import { codesNeverRepeat } from "../support/codes";

// Every registration and login costs a scrypt hash (~0.3 s, several times that on a busy
// machine): the tests that make many get room beyond the default 20 s.
vi.setConfig({ testTimeout: 60_000 });

const PASSWORD = "secret12";
let itemId = 0;

beforeAll(async () => {
  await ready;
  itemId = await createTestItem("accounts-test-chair", { price: 1500, stock: 500 });
});

let counter = 0;
/** A fresh address per test: rate limits are per email. */
const freshEmail = (tag: string) => `${tag}-${++counter}-${crypto.randomBytes(3).toString("hex")}@example.com`;

/** A verified account made through the models (one hash), ready to log in with PASSWORD. */
async function registerVerified(email: string, name = "Test Customer", mobile: string | null = null): Promise<User> {
  const client = clientOf(jsonRequest("POST", "/api/user/auth/register", {}));
  await registerAccount({ name, email, mobile, password: PASSWORD }, client);
  return verifySignup(email, await latestCode(email), null, client);
}

/** The users rows with this email (none until a sign-up code is verified). */
function usersWith(email: string) {
  return db.selectFrom("users").selectAll().where("email", "=", email).execute();
}

/** The sign-up attempts of an email (used or waiting), oldest first. */
function attemptsFor(email: string) {
  return db.selectFrom("oneTimeCodes").selectAll().where("email", "=", email).where("purpose", "=", "signup").orderBy("id").execute();
}

codesNeverRepeat();

/** The code of the newest mail to `email`, which must differ from `code` (codesNeverRepeat: a new code was sent). */
async function newerCode(email: string, code: string): Promise<string> {
  const next = await latestCode(email);
  expect(next, "a new code was mailed").not.toBe(code);
  return next;
}

/** A token for the user without a login (no hash): for tests about something else. */
const tokenFor = (user: User) => issueToken(user.id);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function register(body: unknown) {
  return call(userRegister.action, jsonRequest("POST", "/api/user/auth/register", body));
}
function verify(body: unknown) {
  return call(verifyOtp.action, jsonRequest("POST", "/api/user/auth/verifyOtp", body));
}
function resend(body: unknown) {
  return call(resendOtp.action, jsonRequest("POST", "/api/user/auth/resendOtp", body));
}
/** The `attemptId` a successful registration answered: the attempt's random handle. */
function attemptIdOf(answer: Answer): string {
  expect(answer.status).toBe(201);
  const id = asRecord(answer.body).attemptId;
  expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  return id as string;
}
function login(body: unknown, route: "user" | "auth" = "user") {
  return route === "user"
    ? call(userLogin.action, jsonRequest("POST", "/api/user/auth/login", body))
    : call(authLogin.action, jsonRequest("POST", "/api/auth/login", body));
}
function profileOf(token: string) {
  return call(authProfile.loader, getRequest("/api/auth/profile", bearer(token)));
}
/** Send back the code of the email change the account asked for (its newest mail to `to`). */
async function confirmEmailChange(token: string, to: string) {
  const code = await latestEmailChangeCode(to);
  return call(confirmEmail.action, jsonRequest("POST", "/api/auth/confirm-email", { code }, bearer(token)));
}
/**
 * Move the account to `email` as a client must (ADR 0006): PUT with the current
 * password, then the code mailed to the new address. Answers the confirmation.
 */
async function changeEmail(token: string, email: string, body: Record<string, unknown> = {}) {
  const asked = await call(
    authProfile.action,
    jsonRequest("PUT", "/api/auth/profile", { ...body, email, currentPassword: PASSWORD }, bearer(token)),
  );
  const pendingEmail = email.trim().toLowerCase();
  expect(asked.status).toBe(200);
  expect(asRecord(asked.body).emailChange).toEqual({ pendingEmail });
  return confirmEmailChange(token, pendingEmail);
}
function getCart(token: string) {
  return call(cartGet.loader, getRequest("/api/cart/get", bearer(token)));
}
function addToCart(token: string, body: unknown = { itemId, quantity: 2 }) {
  return call(cartAdd.action, jsonRequest("POST", "/api/cart/add", body, bearer(token)));
}

/** `{ token, user }` of a successful login or verification, checked for shape and secrets. */
function expectSignedIn(answer: Answer, email: string): { token: string; user: User } {
  expect(answer.status).toBe(200);
  const body = asRecord(answer.body);
  expect(Object.keys(body).sort()).toEqual(["token", "user"]);
  expect(typeof body.token).toBe("string");
  expect((body.token as string).length).toBeGreaterThan(20);
  const user = asRecord(body.user);
  expect(Object.keys(user).sort()).toEqual(["email", "id", "mobile", "name"]);
  expect(typeof user.id).toBe("number");
  expect(user.email).toBe(email);
  expectNoSecrets(answer.body);
  return body as unknown as { token: string; user: User };
}

/** No field is named like a secret, and no value is the password or a stored hash. Values are not
 *  searched for words: a random token may well spell "hash". */
function expectNoSecrets(body: unknown) {
  const keys: string[] = [];
  JSON.stringify(body, (key, value: unknown) => {
    keys.push(key);
    return value;
  });
  expect(keys.filter((key) => /password|hash|scrypt|salt|secret/i.test(key))).toEqual([]);
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/scrypt\$/);
  expect(text).not.toContain(PASSWORD);
}

async function cartRows() {
  const row = await db
    .selectFrom("carts")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}

describe("register → emailed code → verify → token", () => {
  it("the whole path, and the token works on the profile and cart API", async () => {
    const email = freshEmail("flow");
    const r = await register({ name: "  Asha Patel ", email: email.toUpperCase(), password: PASSWORD, mobile: "+91 98765 43210" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ success: true, message: "OTP sent successfully", attemptId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
    expect(r.headers.get("Content-Type")).toContain("application/json");

    // The code arrives by mail (to the normalised address), never in the answer.
    const code = await latestCode(email);
    expect(code).toMatch(/^\d{4}$/);
    expect(JSON.stringify(r.body)).not.toContain(code);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(email);
    // The address is not verified yet: nothing the registrant typed is mailed to it.
    expect(mails[0]!.text).toMatch(/^Hello,/);
    expect(JSON.stringify(mails[0])).not.toMatch(/Asha|Patel/);

    const v = await verify({ email: email.toUpperCase(), otp: code });
    const { token, user } = expectSignedIn(v, email);
    expect(user).toEqual({ id: user.id, name: "Asha Patel", email, mobile: "9876543210" });
    const row = await db.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.emailVerifiedAt).not.toBeNull();

    // The bearer token signs API calls in.
    const me = await profileOf(token);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user });
    expectNoSecrets(me.body);

    const added = await addToCart(token);
    expect(added.status).toBe(200);
    expect(asRecord(added.body)).toMatchObject({ itemId, quantity: 2 });
    // A token-signed request gets no guest cookie: the cart belongs to the user.
    expect(added.headers.getSetCookie()).toEqual([]);
    const carts = await db.selectFrom("carts").select(["id", "userId"]).where("userId", "=", user.id).execute();
    expect(carts).toHaveLength(1);

    const cart = await getCart(token);
    expect(cart.status).toBe(200);
    const detail = asRecord(cart.body);
    expect(detail.items).toEqual([expect.objectContaining({ itemId, quantity: 2 })]);
    expect(detail.count).toBe(2);

    // Without the token the same request is a guest's, with an empty cart.
    const guest = await call(cartGet.loader, getRequest("/api/cart/get"));
    expect(asRecord(guest.body).items).toEqual([]);
  });

  it("/api/auth/register answers 201 with the user and no token", async () => {
    const email = freshEmail("authreg");
    const r = await call(authRegister.action, jsonRequest("POST", "/api/auth/register", { name: "Ravi Kumar", email, password: PASSWORD }));
    expect(r.status).toBe(201);
    const body = asRecord(r.body);
    expect(body.token).toBeUndefined();
    // The details as typed: there is no account (and no id) until the code is verified.
    expect(body).toEqual({
      success: true,
      message: "OTP sent successfully",
      attemptId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      user: { name: "Ravi Kumar", email, mobile: null },
    });
    expectNoSecrets(r.body);
    // Not signed in until the code is verified: there is no account to log in to.
    expect(expectApiError(await login({ email, password: PASSWORD }, "auth"), 401).message).toBe(MESSAGES.invalidLogin);
    const { user } = expectSignedIn(await verify({ email, otp: await latestCode(email) }), email);
    expect(user).toEqual({ id: expect.any(Number), name: "Ravi Kumar", email, mobile: null });
  });

  it("a registration makes no account: it waits as an attempt holding the details and only the password's hash", async () => {
    const email = freshEmail("attempt");
    // Made with the shop's own hash parameters: the stored hash must name them.
    const made = await withShopHashParams(() => register({ name: "Waiting Person", email, password: PASSWORD, mobile: "9876543210" }));
    expect(made.status).toBe(201);
    expect(await usersWith(email)).toEqual([]);
    const attempts = await attemptsFor(email);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.usedAt).toBeNull();
    const payload = JSON.parse(attempts[0]!.payload ?? "null") as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(["bound", "mobile", "name", "passwordHash"]);
    // An API registration is not bound to a browser: a code without attemptId may reach it.
    expect(payload).toMatchObject({ name: "Waiting Person", mobile: "9876543210", bound: false });
    expect(payload.passwordHash).toMatch(/^scrypt\$16384\$8\$5\$/);
    expect(attempts[0]!.payload).not.toContain(PASSWORD);

    // Verifying makes the account from the attempt, verified from the start.
    const { user } = expectSignedIn(await verify({ email, otp: await latestCode(email) }), email);
    const rows = await usersWith(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: user.id, name: "Waiting Person", mobile: "9876543210", passwordHash: payload.passwordHash });
    expect(rows[0]!.emailVerifiedAt).not.toBeNull();
  });

  it("login before verification → the same 401 'Invalid email or password' as an unknown email", async () => {
    const email = freshEmail("unverified");
    expect((await register({ name: "Not Yet", email, password: PASSWORD })).status).toBe(201);
    const unknown = await login({ email: freshEmail("nobody-yet"), password: PASSWORD });
    for (const route of ["user", "auth"] as const) {
      const answer = await login({ email, password: PASSWORD }, route);
      expect(expectApiError(answer, 401).message).toBe(MESSAGES.invalidLogin);
      // Nothing tells a waiting sign-up from an unknown email.
      expect(answer.body).toEqual(unknown.body);
    }
    expect(expectApiError(await login({ email, password: "wrongpass" }), 401).message).toBe(MESSAGES.invalidLogin);
    expect(await usersWith(email)).toEqual([]);
  });

  it("a wrong code, an expired code and a reused code each give a clear 400", async () => {
    const email = freshEmail("codes");
    expect((await register({ name: "Code Tester", email, password: PASSWORD })).status).toBe(201);
    const code = await latestCode(email);
    const wrong = String((Number(code) + 1) % 10000).padStart(4, "0");

    const w = expectApiError(await verify({ email, otp: wrong }), 400);
    expect(w.message).toBe(CODE_MESSAGES.wrong);
    expect(w.errors).toEqual({ otp: CODE_MESSAGES.wrong });

    const malformed = expectApiError(await verify({ email, otp: "12" }), 400);
    expect(malformed.message).toBe(MESSAGES.otp);

    // Ten minutes pass.
    await db
      .updateTable("oneTimeCodes")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("email", "=", email)
      .where("purpose", "=", "signup")
      .execute();
    expect(expectApiError(await verify({ email, otp: code }), 400).message).toBe(CODE_MESSAGES.expired);

    // A new code works once; the second use says so. The resend mail goes out in the background.
    expect((await call(resendOtp.action, jsonRequest("POST", "/api/user/auth/resendOtp", { email }))).status).toBe(200);
    await settleMail();
    expect(await mailsTo(email)).toHaveLength(2);
    const fresh = await newerCode(email, code);
    expectSignedIn(await verify({ email, otp: fresh }), email);
    expect(expectApiError(await verify({ email, otp: fresh }), 400).message).toBe(CODE_MESSAGES.used);
  });

  it(`the ${MAX_CODE_ATTEMPTS + 1}th try fails even with the right code; a resent code works`, async () => {
    const email = freshEmail("dead");
    expect((await register({ name: "Guess Er", email, password: PASSWORD })).status).toBe(201);
    const code = await latestCode(email);
    const wrong = String((Number(code) + 1) % 10000).padStart(4, "0");
    for (let i = 1; i <= MAX_CODE_ATTEMPTS; i++) {
      const error = expectApiError(await verify({ email, otp: wrong }), 400);
      expect(error.message).toBe(i < MAX_CODE_ATTEMPTS ? CODE_MESSAGES.wrong : CODE_MESSAGES.lastWrong);
    }
    expect(expectApiError(await verify({ email, otp: code }), 400).message).toBe(CODE_MESSAGES.dead);
    expect(expectApiError(await login({ email, password: PASSWORD }), 401).message).toBe(MESSAGES.invalidLogin);
    expect(await usersWith(email)).toEqual([]);

    const resent = await call(resendOtp.action, jsonRequest("POST", "/api/user/auth/resendOtp", { email }));
    expect(resent.status).toBe(200);
    expect(asRecord(resent.body).success).toBe(true);
    await settleMail();
    expect((await mailsTo(email)).length).toBe(2);
    const fresh = await latestCode(email);
    expectSignedIn(await verify({ email, otp: fresh }), email);
    expectSignedIn(await login({ email, password: PASSWORD }), email);
  });

  it("resendOtp answers the same for an unknown or a verified email and mails nothing", async () => {
    const verified = freshEmail("resend-verified");
    await registerVerified(verified);
    const unknown = freshEmail("resend-unknown");
    const a = await call(resendOtp.action, jsonRequest("POST", "/api/user/auth/resendOtp", { email: unknown }));
    const b = await call(resendOtp.action, jsonRequest("POST", "/api/user/auth/resendOtp", { email: verified }));
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    await settleMail();
    expect(await mailsTo(unknown)).toEqual([]);
    expect(await mailsTo(verified)).toHaveLength(1);
  });

  it("a verified email cannot register again: 409 with a clear message, also in other letter case", async () => {
    const taken = freshEmail("taken");
    await registerVerified(taken);
    for (const email of [taken, taken.toUpperCase()]) {
      const error = expectApiError(await register({ name: "Someone Else", email, password: "other123" }), 409);
      expect(error.message).toBe(MESSAGES.emailTaken);
      expect(error.errors).toEqual({ email: MESSAGES.emailTaken });
    }
    expectApiError(
      await call(authRegister.action, jsonRequest("POST", "/api/auth/register", { name: "X Y", email: taken, password: "other123" })),
      409,
    );
    // The account is untouched: its name stays and the original password still works.
    const { user } = expectSignedIn(await login({ email: taken, password: PASSWORD }), taken);
    expect(user.name).toBe("Test Customer");
    expect(await mailsTo(taken)).toHaveLength(1);
  });

  it(
    "a second registration of a waiting email does not end or change the first: " +
      "the first code, with its attemptId, still works with the first password",
    async () => {
      const email = freshEmail("twice");
      const firstId = attemptIdOf(await register({ name: "First Try", email, password: "firstpass" }));
      const firstCode = await latestCode(email);
      const [firstBefore] = await attemptsFor(email);
      // Someone else registers the same email with a password of their own: a second attempt.
      expect((await register({ name: "Second Try", email, password: "secondpass" })).status).toBe(201);
      const secondCode = await newerCode(email, firstCode);
      expect(await mailsTo(email)).toHaveLength(2);
      expect(await usersWith(email)).toEqual([]);
      const attempts = await attemptsFor(email);
      expect(attempts).toHaveLength(2);
      expect(attempts.every((a) => a.usedAt === null && Number(a.attempts) === 0)).toBe(true);
      expect(attempts[0]).toEqual(firstBefore);

      // The first code, sent with its attemptId, confirms the first attempt.
      const { user } = expectSignedIn(await verify({ email, otp: firstCode, attemptId: firstId }), email);
      expect(user.name).toBe("First Try");
      expectSignedIn(await login({ email, password: "firstpass" }), email);
      expect(expectApiError(await login({ email, password: "secondpass" }), 401).message).toBe(MESSAGES.invalidLogin);

      // The second attempt ended with the verification: its code fails and makes no account.
      expectApiError(await verify({ email, otp: secondCode }), 400);
      expect(await usersWith(email)).toHaveLength(1);
      expect((await attemptsFor(email)).map((a) => a.usedAt === null)).toEqual([false]);
      expectSignedIn(await login({ email, password: "firstpass" }), email);
    },
  );

  it("an API client that sends back its attemptId verifies only its own sign-up: another registration's code fails for it", async () => {
    const email = freshEmail("bound");
    const mine = await register({ name: "Owner", email, password: "ownerpass" });
    expect(mine.status).toBe(201);
    const attemptId = attemptIdOf(mine);
    const myCode = await latestCode(email);
    // Someone else registers the owner's email; the owner's inbox now holds their code too.
    expect((await register({ name: "Intruder", email, password: "intruderpass" })).status).toBe(201);
    const theirCode = await newerCode(email, myCode);

    const refused = expectApiError(await verify({ email, otp: theirCode, attemptId }), 400);
    expect(refused.errors?.otp).toBeTruthy();
    expect(await usersWith(email)).toEqual([]);
    const { user } = expectSignedIn(await verify({ email, otp: myCode, attemptId }), email);
    expect(user.name).toBe("Owner");
    expectSignedIn(await login({ email, password: "ownerpass" }), email);
    expect(expectApiError(await login({ email, password: "intruderpass" }), 401).message).toBe(MESSAGES.invalidLogin);
  });

  it("once one attempt is verified the others are gone, their codes fail, and the email registers no more (409)", async () => {
    const email = freshEmail("others-end");
    const oneId = attemptIdOf(await register({ name: "One", email, password: "onepass1" }));
    const one = await latestCode(email);
    const twoId = attemptIdOf(await register({ name: "Two", email, password: "twopass2" }));
    const two = await newerCode(email, one);
    const [first, second] = await attemptsFor(email);
    expect([first!.handle, second!.handle]).toEqual([oneId, twoId]);

    expect(expectSignedIn(await verify({ email, otp: two, attemptId: twoId }), email).user.name).toBe("Two");
    // Only the verified attempt is left (used); the other is deleted.
    const left = await attemptsFor(email);
    expect(left.map((a) => a.id)).toEqual([second!.id]);
    expect(left[0]!.usedAt).not.toBeNull();
    expect(await db.selectFrom("oneTimeCodes").select("id").where("id", "=", first!.id).executeTakeFirst()).toBeUndefined();

    const late = expectApiError(await verify({ email, otp: one }), 400);
    expect(late.errors).toEqual({ otp: late.message });
    // Its handle names nothing any more.
    expect(expectApiError(await verify({ email, otp: one, attemptId: oneId }), 404).message).toBe(UNKNOWN_ATTEMPT);
    expect(expectApiError(await verify({ email, otp: two }), 400).message).toBe(CODE_MESSAGES.used);
    expect(await usersWith(email)).toHaveLength(1);
    expect(expectApiError(await login({ email, password: "onepass1" }), 401).message).toBe(MESSAGES.invalidLogin);

    const again = expectApiError(await register({ name: "Three", email, password: "threepass3" }), 409);
    expect(again.message).toBe(MESSAGES.emailTaken);
    // A resend finds nothing waiting and mails nothing.
    const mailed = (await mailsTo(email)).length;
    expect((await call(resendOtp.action, jsonRequest("POST", "/api/user/auth/resendOtp", { email }))).status).toBe(200);
    await settleMail();
    expect(await mailsTo(email)).toHaveLength(mailed);
  });

  it(
    "two registrations waiting: a code without attemptId → 409 and both still wait; " +
      "with its attemptId each code confirms its own sign-up",
    async () => {
      const email = freshEmail("several");
      const firstId = attemptIdOf(await register({ name: "First Try", email, password: "firstpass" }));
      const firstCode = await latestCode(email);
      const secondId = attemptIdOf(await register({ name: "Second Try", email, password: "secondpass" }));
      const secondCode = await newerCode(email, firstCode);
      const waiting = await attemptsFor(email);
      expect(waiting).toHaveLength(2);

      // Even the right code of one of them: nothing tells whose sign-up (and password) it would confirm.
      const several = expectApiError(await verify({ email, otp: firstCode }), 409);
      expect(several.message).toBe(SEVERAL_WAITING);
      expect(several.errors).toEqual({ otp: SEVERAL_WAITING });
      // Nothing ends: someone who knows the email cannot end a sign-up whose client kept its attemptId.
      expect(await attemptsFor(email)).toEqual(waiting);
      expect(await usersWith(email)).toEqual([]);

      // With its attemptId, the second sign-up's code confirms the second sign-up.
      expect(expectApiError(await verify({ email, otp: firstCode, attemptId: secondId }), 400).message).toBe(CODE_MESSAGES.wrong);
      const { user } = expectSignedIn(await verify({ email, otp: secondCode, attemptId: secondId }), email);
      expect(user.name).toBe("Second Try");
      expectSignedIn(await login({ email, password: "secondpass" }), email);
      expect(expectApiError(await login({ email, password: "firstpass" }), 401).message).toBe(MESSAGES.invalidLogin);
      // The account exists now: the other sign-up has ended (only the used one is left).
      expect((await attemptsFor(email)).map((a) => a.usedAt !== null)).toEqual([true]);
      expect(expectApiError(await verify({ email, otp: firstCode, attemptId: firstId }), 404).message).toBe(UNKNOWN_ATTEMPT);
    },
  );

  it(
    "resendOtp without attemptId renews nothing while two registrations wait: " +
      "no mail, both attempts unchanged; with an attemptId it renews that one",
    async () => {
      const email = freshEmail("resend-several");
      const firstId = attemptIdOf(await register({ name: "First Try", email, password: "firstpass" }));
      const firstCode = await latestCode(email);
      const secondId = attemptIdOf(await register({ name: "Second Try", email, password: "secondpass" }));
      await newerCode(email, firstCode);
      await settleMail();
      expect(await mailsTo(email)).toHaveLength(2);
      const before = await attemptsFor(email);

      const resent = await resend({ email });
      expect(resent.status).toBe(200);
      expect(asRecord(resent.body).success).toBe(true);
      await settleMail();
      expect(await mailsTo(email)).toHaveLength(2);
      expect(await attemptsFor(email)).toEqual(before);
      // The answer is the one any email gets, waiting or not.
      expect((await resend({ email: freshEmail("resend-nobody") })).body).toEqual(resent.body);

      // Named by its attemptId, the second attempt is renewed (one mail); the first keeps its code.
      expect((await resend({ email, attemptId: secondId })).status).toBe(200);
      await settleMail();
      expect(await mailsTo(email)).toHaveLength(3);
      const after = await attemptsFor(email);
      expect(after[0]).toEqual(before[0]);
      expect(after).toHaveLength(2);
      const { user } = expectSignedIn(await verify({ email, otp: firstCode, attemptId: firstId }), email);
      expect(user.name).toBe("First Try");
    },
  );

  it("a code verified after the email got an account meanwhile → 409, and that account is untouched", async () => {
    const email = freshEmail("meanwhile");
    expect((await register({ name: "Late Verifier", email, password: "latepass1" })).status).toBe(201);
    const code = await latestCode(email);
    // Another account moves to this email while the sign-up waits.
    const mover = await registerVerified(freshEmail("mover"), "Mover");
    const moved = await changeEmail(await tokenFor(mover), email);
    expect(moved.status).toBe(200);

    const conflict = expectApiError(await verify({ email, otp: code }), 409);
    expect(conflict.message).toBe(MESSAGES.emailTaken);
    const rows = await usersWith(email);
    expect(rows.map((r) => r.id)).toEqual([mover.id]);
    expect(rows[0]!.name).toBe("Mover");
    expectSignedIn(await login({ email, password: PASSWORD }), email);
    expectApiError(await login({ email, password: "latepass1" }), 401);
  });
});

describe("login", () => {
  it("/api/user/auth/login and /api/auth/login both answer { token, user }, with emails matched case-insensitively", async () => {
    const email = freshEmail("login");
    const registered = await registerVerified(email, "Login Person", "9123456789");
    const a = expectSignedIn(await login({ email, password: PASSWORD }, "user"), email);
    const b = expectSignedIn(await login({ email: `  ${email.toUpperCase()} `, password: PASSWORD }, "auth"), email);
    expect(a.user).toEqual(registered);
    expect(b.user).toEqual({ id: registered.id, name: "Login Person", email, mobile: "9123456789" });
    expect(a.token).not.toBe(b.token);
    for (const token of [a.token, b.token]) expect((await profileOf(token)).status).toBe(200);
  });

  it("a wrong password and an unknown email get the same 401 'Invalid email or password'", async () => {
    const email = freshEmail("badlogin");
    await registerVerified(email);
    const wrong = await login({ email, password: "not-the-password" });
    const unknown = await login({ email: freshEmail("nobody"), password: PASSWORD }, "auth");
    expect(expectApiError(wrong, 401).message).toBe("Invalid email or password");
    expect(expectApiError(unknown, 401).message).toBe("Invalid email or password");
    expect(unknown.body).toEqual(wrong.body);
    // Passwords are case-sensitive.
    expectApiError(await login({ email, password: PASSWORD.toUpperCase() }), 401);
  });

  it("empty fields → 400 'Please enter both email and password'", async () => {
    expect(expectApiError(await login({ email: "", password: "" }), 400).message).toBe(MESSAGES.loginRequired);
    expect(expectApiError(await login({ email: "someone@example.com" }, "auth"), 400).message).toBe(MESSAGES.loginRequired);
  });

  it(`after ${LIMITS.login.max} attempts for one email the next gets 429, even with the right password`, async () => {
    const email = freshEmail("ratelimit");
    await registerVerified(email);
    const attempts = await Promise.all(Array.from({ length: LIMITS.login.max }, () => login({ email, password: "wrongpass" })));
    for (const a of attempts) expectApiError(a, 401);
    const limited = await login({ email, password: PASSWORD });
    const error = expectApiError(limited, 429);
    expect(error.message).toMatch(/too many/i);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The other login path shares the limit; the email's case does not escape it.
    expectApiError(await login({ email: email.toUpperCase(), password: PASSWORD }, "auth"), 429);
    // Another email is not held by this one's tries.
    expect(expectApiError(await login({ email: freshEmail("ratelimit-other"), password: PASSWORD }), 401).message).toBe(
      MESSAGES.invalidLogin,
    );
  });
});

describe("logout and token checks", () => {
  it("logout revokes the token: it then gets 401 on the profile and the cart API", async () => {
    const email = freshEmail("logout");
    await registerVerified(email);
    const { token } = expectSignedIn(await login({ email, password: PASSWORD }), email);
    const { token: other } = expectSignedIn(await login({ email, password: PASSWORD }), email);
    expect((await addToCart(token)).status).toBe(200);

    const out = await call(authLogout.action, jsonRequest("POST", "/api/auth/logout", undefined, bearer(token)));
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    const revoked = await db.selectFrom("apiTokens").select("revokedAt").where("revokedAt", "is not", null).execute();
    expect(revoked.length).toBeGreaterThanOrEqual(1);

    expectApiError(await profileOf(token), 401);
    const before = await cartRows();
    expectApiError(await getCart(token), 401);
    const add = await addToCart(token);
    expectApiError(add, 401);
    expect(add.headers.getSetCookie()).toEqual([]);
    expect(await cartRows()).toBe(before);

    // Only that token: the user's other sign-in still works and sees the cart.
    expect((await profileOf(other)).status).toBe(200);
    expect(asRecord((await getCart(other)).body).count).toBe(2);

    // /api/user/auth/logout is the same action.
    expect((await call(userLogout.action, jsonRequest("POST", "/api/user/auth/logout", undefined, bearer(other)))).status).toBe(200);
    expectApiError(await profileOf(other), 401);
  });

  it("a garbage or unknown bearer token gets 401 on the cart API, not a new guest cart", async () => {
    const before = await cartRows();
    for (const token of ["garbage", `slt_${crypto.randomBytes(32).toString("base64url")}`, "x".repeat(500)]) {
      for (const answer of [await getCart(token), await addToCart(token), await profileOf(token)]) {
        expectApiError(answer, 401);
        expect(answer.headers.getSetCookie()).toEqual([]);
      }
    }
    expect(await cartRows()).toBe(before);
  });

  it("the profile API without any sign-in is 401", async () => {
    expectApiError(await call(authProfile.loader, getRequest("/api/auth/profile")), 401);
    expectApiError(await call(authProfile.action, jsonRequest("PUT", "/api/auth/profile", { name: "X", email: "x@example.com" })), 401);
  });
});

describe("PUT /api/auth/profile", () => {
  function put(token: string, body: unknown) {
    return call(authProfile.action, jsonRequest("PUT", "/api/auth/profile", body, bearer(token)));
  }

  it("updates name and mobile, and answers { user }", async () => {
    const email = freshEmail("profile");
    const user = await registerVerified(email, "Old Name");
    const token = await tokenFor(user);
    const r = await put(token, { name: " New Name ", email, mobile: "+91 70000 12345" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ user: { id: user.id, name: "New Name", email, mobile: "7000012345" } });
    expect((await profileOf(token)).body).toEqual(r.body);
    // Clearing the mobile stores null.
    expect(asRecord((await put(token, { name: "New Name", email, mobile: "" })).body).user).toMatchObject({ mobile: null });
  });

  it("a new email must be free (409 with errors.email); a changed email signs in and the old one does not", async () => {
    const taken = freshEmail("profile-taken");
    await registerVerified(taken);
    const email = freshEmail("profile-mover");
    const token = await tokenFor(await registerVerified(email, "Mover"));

    const conflict = expectApiError(await put(token, { name: "Mover", email: taken.toUpperCase(), currentPassword: PASSWORD }), 409);
    expect(conflict.errors).toEqual({ email: MESSAGES.emailInUse });
    expect(asRecord((await profileOf(token)).body).user).toMatchObject({ email });

    const moved = freshEmail("profile-moved");
    const r = await changeEmail(token, ` ${moved.toUpperCase()} `, { name: "Mover" });
    expect(asRecord(r.body).user).toMatchObject({ email: moved });
    // The old address is told of the change (in the background).
    await settleMail();
    expect((await mailsTo(email)).some((m) => /email address was changed/i.test(m.subject))).toBe(true);
    expectSignedIn(await login({ email: moved, password: PASSWORD }), moved);
    expectApiError(await login({ email, password: PASSWORD }), 401);
  });

  it("a bad mobile or email → 400 with the field's message; nothing changes", async () => {
    const email = freshEmail("profile-bad");
    const token = await tokenFor(await registerVerified(email, "Bad Input", "9000000001"));
    const mobile = expectApiError(await put(token, { name: "Bad Input", email, mobile: "12345" }), 400);
    expect(mobile.errors).toEqual({ mobile: MESSAGES.mobile });
    const mail = expectApiError(await put(token, { name: "Bad Input", email: "not-an-email", mobile: "" }), 400);
    expect(mail.errors).toEqual({ email: MESSAGES.email });
    expectApiError(await put(token, { name: "", email }), 400);
    expectApiError(await put(token, { name: "N".repeat(101), email }), 400);
    expect(asRecord((await profileOf(token)).body).user).toMatchObject({ name: "Bad Input", email, mobile: "9000000001" });
  });

  it("a field left out keeps its value", async () => {
    const email = freshEmail("profile-partial");
    const user = await registerVerified(email, "Partial Person", "9000000002");
    const token = await tokenFor(user);

    // Only the name: email and mobile stay.
    const named = await put(token, { name: "Renamed Person" });
    expect(named.status).toBe(200);
    expect(named.body).toEqual({ user: { id: user.id, name: "Renamed Person", email, mobile: "9000000002" } });

    // Only the mobile: name and email stay; an empty mobile clears it.
    expect(asRecord((await put(token, { mobile: "+91 80000 11111" })).body).user).toEqual({
      id: user.id,
      name: "Renamed Person",
      email,
      mobile: "8000011111",
    });
    expect(asRecord((await put(token, { mobile: "" })).body).user).toEqual({ id: user.id, name: "Renamed Person", email, mobile: null });

    // Only the email (with the password it needs): name (and the cleared mobile) stay; the
    // email itself changes once the code mailed to it comes back.
    const moved = freshEmail("profile-partial-moved");
    expect((await put(token, { email: moved, currentPassword: PASSWORD })).body).toEqual({
      user: { id: user.id, name: "Renamed Person", email, mobile: null },
      emailChange: { pendingEmail: moved },
    });
    expect(asRecord((await confirmEmailChange(token, moved)).body).user).toEqual({
      id: user.id,
      name: "Renamed Person",
      email: moved,
      mobile: null,
    });

    // Nothing at all: nothing changes.
    expect((await put(token, {})).body).toEqual({ user: { id: user.id, name: "Renamed Person", email: moved, mobile: null } });
    expect(asRecord((await profileOf(token)).body).user).toEqual({ id: user.id, name: "Renamed Person", email: moved, mobile: null });

    // A field sent empty is not left out: it is checked.
    expect(expectApiError(await put(token, { name: "" }), 400).errors).toEqual({ name: "Name is required" });
    expect(expectApiError(await put(token, { email: "" }), 400).errors).toEqual({ email: "Email is required" });
  });

  it(`after ${LIMITS.profile.max} updates in a window the account gets 429; another account does not`, async () => {
    const email = freshEmail("profile-limit");
    const user = await registerVerified(email, "Busy Editor");
    const token = await tokenFor(user);
    for (let i = 1; i <= LIMITS.profile.max; i++) expect((await put(token, { name: `Busy Editor ${i}` })).status).toBe(200);
    const limited = await put(token, { name: "One Too Many" });
    expect(expectApiError(limited, 429).message).toMatch(/too many/i);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(asRecord((await profileOf(token)).body).user).toMatchObject({ name: `Busy Editor ${LIMITS.profile.max}` });
    // Per account: a second token of the same account is held too, another account is not.
    expectApiError(await put(await tokenFor(user), { name: "Other Token" }), 429);
    const other = await tokenFor(await registerVerified(freshEmail("profile-limit-other"), "Calm Editor"));
    expect((await put(other, { name: "Calm Editor 2" })).status).toBe(200);
  });

  it("an email change ends the reset links still out for the old address", async () => {
    const email = freshEmail("profile-reset");
    const user = await registerVerified(email, "Link Holder");
    const token = await tokenFor(user);
    await requestPasswordReset(email, publicOrigin(), clientOf(jsonRequest("POST", "/forgot-password", {})));
    await settleMail();
    const resetToken = new URL(await latestResetLink(email)).searchParams.get("token")!;
    expect(await findResetToken(db, resetToken)).not.toBeNull();

    // A name-only change leaves the link alone...
    expect((await put(token, { name: "Link Holder Two" })).status).toBe(200);
    expect(await findResetToken(db, resetToken)).not.toBeNull();

    // ...so does asking for an email change; the change, once its code comes back, ends it.
    const moved = freshEmail("profile-reset-moved");
    expect((await put(token, { email: moved, currentPassword: PASSWORD })).status).toBe(200);
    expect(await findResetToken(db, resetToken)).not.toBeNull();
    expect((await confirmEmailChange(token, moved)).status).toBe(200);
    expect(await findResetToken(db, resetToken)).toBeNull();
    const refused = await resetPassword(resetToken, "takeover1", clientOf(jsonRequest("POST", "/reset-password", {}))).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(400);
    expect((refused as AppError).message).toBe(RESET_INVALID);
    expectSignedIn(await login({ email: moved, password: PASSWORD }), moved);
    expectApiError(await login({ email: moved, password: "takeover1" }), 401);
  });

  it("only PUT changes the profile", async () => {
    const email = freshEmail("profile-method");
    const token = await tokenFor(await registerVerified(email));
    const r = await call(authProfile.action, jsonRequest("POST", "/api/auth/profile", { name: "Posted", email }, bearer(token)));
    expectApiError(r, 405);
    expect(asRecord((await profileOf(token)).body).user).toMatchObject({ name: "Test Customer" });
  });
});

describe("hostile and oversized input", () => {
  it("overlong input → 400", async () => {
    const email = freshEmail("long");
    for (const body of [
      { name: "N".repeat(101), email, password: PASSWORD },
      { name: "Long", email, password: "p".repeat(129) },
      { name: "Long", email: `${"a".repeat(300)}@example.com`, password: PASSWORD },
      { name: "Long", email, password: PASSWORD, mobile: "9".repeat(40) },
    ]) {
      expectApiError(await register(body), 400);
    }
    expect(await mailsTo(email)).toEqual([]);
    expect(await db.selectFrom("users").select("id").where("email", "=", email).execute()).toEqual([]);
    // Login refuses an overlong password before checking it (400, not 401).
    expectApiError(await login({ email, password: "p".repeat(10_000) }), 400);
    expectApiError(await verify({ email, otp: "1".repeat(1000) }), 400);
  });

  it("wrong types are refused with 400", async () => {
    expectApiError(await register({ name: ["A"], email: "t@example.com", password: PASSWORD }), 400);
    expectApiError(await login({ email: { $ne: "" }, password: PASSWORD }), 400);
    expectApiError(await login({ email: "a@example.com", password: 12345678 }), 400);
    const notObject = new Request(`${ORIGIN}/api/user/auth/login`, {
      method: "POST",
      headers: { Host: "localhost:3000", Origin: ORIGIN, "Content-Type": "application/json" },
      body: "[1,2]",
    });
    expectApiError(await call(userLogin.action, notObject), 400);
  });

  it("extra JSON fields (id, emailVerifiedAt, passwordHash...) cannot sign in or alter anything", async () => {
    const victim = freshEmail("victim");
    const victimUser = await registerVerified(victim, "Victim");
    const victimRow = await db.selectFrom("users").selectAll().where("id", "=", victimUser.id).executeTakeFirstOrThrow();

    // Registration ignores them: a sign-up attempt with the server's own hash, no account yet.
    const email = freshEmail("extra");
    const r = await withShopHashParams(() =>
      call(
        authRegister.action,
        jsonRequest("POST", "/api/auth/register", {
          name: "Sneaky",
          email,
          password: PASSWORD,
          id: victimUser.id,
          emailVerifiedAt: new Date().toISOString(),
          passwordHash: "scrypt$1$1$1$AAAA$AAAA",
          token: "slt_forged",
          isAdmin: true,
          bound: true,
        }),
      ),
    );
    expect(r.status).toBe(201);
    expect(asRecord(r.body).user).toEqual({ name: "Sneaky", email, mobile: null });
    expect(await usersWith(email)).toEqual([]);
    const [pending] = await attemptsFor(email);
    const payload = JSON.parse(pending!.payload ?? "null") as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(["bound", "mobile", "name", "passwordHash"]);
    // An API client cannot bind its attempt to a browser by asking.
    expect(payload.bound).toBe(false);
    expect(payload.passwordHash).toMatch(/^scrypt\$16384\$8\$5\$/);
    expect(payload.passwordHash).not.toBe("scrypt$1$1$1$AAAA$AAAA");
    expect(expectApiError(await login({ email, password: PASSWORD, emailVerifiedAt: "2020-01-01T00:00:00.000Z" }), 401).message).toBe(
      MESSAGES.invalidLogin,
    );
    // Verified, it becomes a new account of its own, with the server's hash.
    const sneaky = expectSignedIn(await verify({ email, otp: await latestCode(email), id: victimUser.id }), email).user;
    expect(sneaky.id).not.toBe(victimUser.id);
    const row = (await usersWith(email))[0]!;
    expect(row.passwordHash).toBe(payload.passwordHash);
    expect(row.emailVerifiedAt).not.toBeNull();

    // Login with a forged token or user in the body still needs the password.
    expectApiError(await login({ email: victim, password: "wrongpass", token: "slt_forged", user: victimUser, id: victimUser.id }), 401);
    expectApiError(await verify({ email: victim, otp: "0000", user: victimUser, emailVerifiedAt: null }), 400);

    // Profile updates touch only the caller's name, email and mobile.
    const token = await tokenFor(victimUser);
    const attackerEmail = freshEmail("attacker");
    const attacker = await registerVerified(attackerEmail, "Attacker");
    const attackerToken = await tokenFor(attacker);
    const put = await call(
      authProfile.action,
      jsonRequest(
        "PUT",
        "/api/auth/profile",
        {
          id: victimUser.id,
          userId: victimUser.id,
          name: "Renamed",
          email: attackerEmail,
          mobile: "",
          passwordHash: "x",
          emailVerifiedAt: null,
          createdAt: "2000-01-01",
        },
        bearer(attackerToken),
      ),
    );
    expect(put.status).toBe(200);
    expect(asRecord(put.body).user).toEqual({ id: attacker.id, name: "Renamed", email: attackerEmail, mobile: null });
    expect(await db.selectFrom("users").selectAll().where("id", "=", victimUser.id).executeTakeFirstOrThrow()).toEqual(victimRow);
    const attackerRow = await db.selectFrom("users").selectAll().where("id", "=", attacker.id).executeTakeFirstOrThrow();
    expect(attackerRow.emailVerifiedAt).not.toBeNull();
    expect(attackerRow.passwordHash).toMatch(/^scrypt\$/);
    expectSignedIn(await login({ email: attackerEmail, password: PASSWORD }), attackerEmail);
    expect(asRecord((await profileOf(token)).body).user).toEqual(victimUser);
  });
});
