// The account pages with form posts, as a browser without JavaScript sends them: sign-up,
// the OTP step, login (session rotation, safe redirects, the guest's cart and wishlist joining
// the account), profile and password change, forgot and reset password, logout. The sign-up
// takeover found in review (someone re-registering a waiting email with their own password)
// is tried here from both browsers, and from the API against a web sign-up.
import { defaultVariantId } from "../support/items";
import crypto from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { issueToken } from "~/lib/api-tokens.server";
import { hashPassword } from "~/lib/password.server";
import { clientOf, LIMITS, rateLimitClient, UNKNOWN_CLIENT } from "~/lib/rate-limit.server";
import { settleMail } from "~/lib/mail.server";
import { CODE_MESSAGES, MAX_CODE_ATTEMPTS, RESET_INVALID, UNKNOWN_ATTEMPT } from "~/lib/one-time-codes.server";
import { sessionCookie } from "~/lib/session.server";
import type { User } from "~/models/users/users.server";
import { registerAccount, verifySignup } from "~/models/users/signup.server";
import * as root from "~/root";
import * as authProfile from "~/routes/api.auth.profile";
import * as apiRegister from "~/routes/api.user.auth.register";
import * as apiResendOtp from "~/routes/api.user.auth.resendOtp";
import * as apiVerifyOtp from "~/routes/api.user.auth.verifyOtp";
import * as cart from "~/routes/cart";
import * as forgotPassword from "~/routes/forgot-password";
import * as login from "~/routes/login";
import * as logout from "~/routes/logout";
import * as profile from "~/routes/profile";
import * as profileDetails from "~/routes/profile.details";
import * as profileConfirmEmail from "~/routes/profile.email.confirm";
import * as profilePassword from "~/routes/profile.password";
import * as resetPassword from "~/routes/reset-password";
import * as signup from "~/routes/signup";
import * as verifyOtp from "~/routes/verify-otp";
import * as wishlist from "~/routes/wishlist";
import { MESSAGES } from "~/utils/account-schemas";
import { createTestItem } from "../support/items";
import { latestCode, latestEmailChangeCode, latestResetLink, mailsTo } from "../support/outbox";
import { ORIGIN, formRequest, getRequest, jsonRequest } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, cookieJar, expectApiError } from "../support/route-calls";
import { codesNeverRepeat } from "../support/codes";

// Every registration and login costs a scrypt hash (~0.3 s, several times that on a busy
// machine): the tests that make many get room beyond the default 20 s.
vi.setConfig({ testTimeout: 60_000 });

const PASSWORD = "secret12";
const PROFILE_FAILED = "Failed to update profile. Please try again.";
const items = { a: 0, b: 0, c: 0, d: 0 };

beforeAll(async () => {
  await ready;
  for (const key of ["a", "b", "c", "d"] as const) items[key] = await createTestItem(`pages-test-${key}`);
});

let counter = 0;
const freshEmail = (tag: string) => `${tag}-${++counter}-${crypto.randomBytes(3).toString("hex")}@example.com`;

async function registerVerified(email: string, name = "Page Customer"): Promise<User> {
  const client = clientOf(formRequest("/signup", {}));
  await registerAccount({ name, email, mobile: null, password: PASSWORD }, client);
  return verifySignup(email, await latestCode(email), null, client);
}

/** The users rows with this email (none until a sign-up code is verified). */
function usersWith(email: string) {
  return db.selectFrom("users").select(["id", "name", "emailVerifiedAt"]).where("email", "=", email).execute();
}

/** The session's stored data (what the server keeps for this cookie). */
async function sessionData(cookie: string): Promise<Record<string, unknown>> {
  return JSON.parse((await sessionRow(await sessionId(cookie)))?.data ?? "{}") as Record<string, unknown>;
}

/** A form post whose body may repeat a key (the four OTP boxes). */
function postForm(path: string, body: URLSearchParams, cookie = "") {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      Host: "localhost:3000",
      Origin: ORIGIN,
      "Content-Type": "application/x-www-form-urlencoded",
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: body.toString(),
  });
}

const withCookie = (cookie: string): Record<string, string> => (cookie ? { Cookie: cookie } : {});

function post(route: { action: Parameters<typeof call>[0] }, path: string, fields: Record<string, string>, cookie = "") {
  return call(route.action, formRequest(path, fields, withCookie(cookie)));
}

/** Post the OTP form as the four boxes send it. */
function verifyCode(email: string, code: string, cookie = "") {
  const body = new URLSearchParams({ email, intent: "verify" });
  for (const digit of code) body.append("otp", digit);
  return call(verifyOtp.action, postForm("/verify-otp", body, cookie));
}

/** Log in through the page; returns the answer and the browser's cookies afterwards. */
async function logIn(email: string, password = PASSWORD, cookie = "", extra: Record<string, string> = {}) {
  const answer = await post(login, "/login", { email, password, ...extra }, cookie);
  return { answer, cookie: cookieJar(answer, cookie) };
}

/** The session id a Cookie header carries (the signed __session value), or null. */
async function sessionId(cookie: string): Promise<string | null> {
  return ((await sessionCookie.parse(cookie)) as string | null) ?? null;
}

async function sessionRow(id: string | null) {
  if (!id) return undefined;
  return db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
}

function cookieValue(cookie: string, name: string) {
  return cookie
    .split(/;\s*/)
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

/** Who the root loader (the header) says is signed in. */
async function headerUser(cookie: string) {
  const answer = await call(root.loader, getRequest("/", withCookie(cookie)));
  expect(answer.status).toBe(200);
  return asRecord(answer.body).user as { name: string } | null;
}

function expectRedirect(answer: Answer, location: string | RegExp) {
  expect([302, 303]).toContain(answer.status);
  const target = answer.headers.get("Location") ?? "";
  if (typeof location === "string") expect(target).toBe(location);
  else expect(target).toMatch(location);
}

function failure(answer: Answer, status: number) {
  expect(answer.status).toBe(status);
  const body = asRecord(answer.body);
  expect(body.ok).toBe(false);
  return body as { formError: string; fieldErrors: Record<string, string>; values?: Record<string, string> };
}

function signupFields(email: string, over: Record<string, string> = {}) {
  return { name: "Priya Shah", email, mobile: "98765 43210", password: PASSWORD, confirmPassword: PASSWORD, terms: "on", ...over };
}

codesNeverRepeat();

describe("sign-up and the OTP step", () => {
  it("signup → /verify-otp?email=… → four otp fields → /profile, signed in", async () => {
    const email = freshEmail("pagesignup");
    const s = await post(signup, "/signup", signupFields(email.toUpperCase()));
    expectRedirect(s, `/verify-otp?email=${encodeURIComponent(email)}`);
    expect(s.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(true);
    let cookie = cookieJar(s);

    // The OTP page shows what the form held, to this browser only.
    const page = await call(verifyOtp.loader, getRequest(`/verify-otp?email=${encodeURIComponent(email)}`, withCookie(cookie)));
    expect(asRecord(page.body)).toEqual({
      email,
      pending: { name: "Priya Shah", email, mobile: "9876543210" },
    });
    // The session holds the attempt this browser opened (its handle, kept on the server); no account exists yet.
    const [attempt] = await db
      .selectFrom("oneTimeCodes")
      .select("handle")
      .where("email", "=", email)
      .where("purpose", "=", "signup")
      .execute();
    expect(asRecord((await sessionData(cookie)).pendingSignup).attemptId).toBe(attempt!.handle);
    expect(await usersWith(email)).toEqual([]);
    const stranger = await call(verifyOtp.loader, getRequest(`/verify-otp?email=${encodeURIComponent(email)}`));
    expect(asRecord(stranger.body).pending).toBeNull();

    const code = await latestCode(email);
    const body = new URLSearchParams({ email, intent: "verify" });
    for (const digit of code) body.append("otp", digit);
    const before = await sessionId(cookie);
    const v = await call(verifyOtp.action, postForm("/verify-otp", body, cookie));
    expectRedirect(v, "/profile");
    expect(v.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(true);
    cookie = cookieJar(v, cookie);
    expect(await sessionId(cookie)).not.toBe(before);

    expect(await headerUser(cookie)).toEqual({ name: "Priya Shah" });
    const me = await call(profile.loader, getRequest("/profile", withCookie(cookie)));
    expect(me.status).toBe(200);
    expect(asRecord(me.body).user).toMatchObject({ name: "Priya Shah", email, mobile: "9876543210" });
    // The session no longer holds the pending sign-up.
    expect(JSON.parse((await sessionRow(await sessionId(cookie)))!.data)).not.toHaveProperty("pendingSignup");
  });

  it("sign-up errors re-render with the message docs/product.md gives and never echo the password", async () => {
    const email = freshEmail("pagesignup-bad");
    const missing = failure(await post(signup, "/signup", signupFields(email, { name: " ", confirmPassword: "different" })), 400);
    expect(missing.formError).toBe("Please fill in all required fields");
    const differ = failure(await post(signup, "/signup", signupFields(email, { confirmPassword: "secret13" })), 400);
    expect(differ.formError).toBe("Passwords do not match");
    expect(differ.values).toMatchObject({ name: "Priya Shah", email, mobile: "98765 43210", terms: "on" });
    expect(JSON.stringify(differ)).not.toContain(PASSWORD);
    const short = failure(await post(signup, "/signup", signupFields(email, { password: "abc", confirmPassword: "abc" })), 400);
    expect(short.formError).toBe("Password must be at least 6 characters long");
    expect(failure(await post(signup, "/signup", signupFields(email, { terms: "" })), 400).fieldErrors.terms).toBe(MESSAGES.terms);
    expect(await mailsTo(email)).toEqual([]);

    const taken = freshEmail("pagesignup-taken");
    await registerVerified(taken);
    const conflict = failure(await post(signup, "/signup", signupFields(taken)), 409);
    expect(conflict.formError).toBe(MESSAGES.emailTaken);
    expect(conflict.fieldErrors.email).toBe(MESSAGES.emailTaken);
  });

  it("a wrong code re-renders with 400; resend mails a new code", async () => {
    const email = freshEmail("pageotp");
    const cookie = cookieJar(await post(signup, "/signup", signupFields(email)));
    const code = await latestCode(email);
    const wrong = String((Number(code) + 1) % 10000).padStart(4, "0");
    const body = new URLSearchParams({ email, intent: "verify" });
    for (const digit of wrong) body.append("otp", digit);
    const w = failure(await call(verifyOtp.action, postForm("/verify-otp", body, cookie)), 400);
    expect(w.formError).toMatch(/Invalid OTP/);
    expect(w.fieldErrors.otp).toBe(w.formError);

    const threeBoxes = new URLSearchParams({ email, intent: "verify" });
    for (const digit of code.slice(0, 3)) threeBoxes.append("otp", digit);
    expect(failure(await call(verifyOtp.action, postForm("/verify-otp", threeBoxes, cookie)), 400).formError).toBe(MESSAGES.otp);

    const resent = await post(verifyOtp, "/verify-otp", { email, intent: "resend" }, cookie);
    expectRedirect(resent, `/verify-otp?email=${encodeURIComponent(email)}`);
    // The resend mail goes out in the background.
    await settleMail();
    expect(await mailsTo(email)).toHaveLength(2);
    const fresh = new URLSearchParams({ email, intent: "verify" });
    for (const digit of await latestCode(email)) fresh.append("otp", digit);
    expectRedirect(await call(verifyOtp.action, postForm("/verify-otp", fresh, cookie)), "/profile");
  });

  /**
   * The victim fills in the form (attempt A, code CA), then someone else registers the same
   * email from another browser with a password of their own (attempt B, code CB, mailed to
   * the victim as well). CB is the newest mail in the victim's inbox.
   */
  async function victimAndAttacker(tag: string) {
    const email = freshEmail(tag);
    const victim = cookieJar(
      await post(signup, "/signup", signupFields(email, { name: "Vera Victim", password: "victimpass", confirmPassword: "victimpass" })),
    );
    const ca = await latestCode(email);
    // The attacker registers the same email: a second attempt with a code of its own (codesNeverRepeat).
    const answer = await post(
      signup,
      "/signup",
      signupFields(email, { name: "Mallory", mobile: "", password: "attackpass", confirmPassword: "attackpass" }),
    );
    expectRedirect(answer, `/verify-otp?email=${encodeURIComponent(email)}`);
    const attacker = cookieJar(answer);
    const cb = await latestCode(email);
    expect(cb).not.toBe(ca);
    const attemptOf = async (cookie: string) => asRecord((await sessionData(cookie)).pendingSignup).attemptId;
    expect(await attemptOf(victim)).not.toBe(await attemptOf(attacker));
    return { email, victim, attacker, ca, cb };
  }

  it("takeover: re-registering a waiting email with another password cannot take it over from the victim's browser", async () => {
    const { email, victim, attacker, ca, cb } = await victimAndAttacker("takeover");
    // Both codes went to the victim's mailbox; no account exists yet.
    expect((await mailsTo(email)).map((m) => m.to)).toEqual([email, email]);
    expect(await usersWith(email)).toEqual([]);

    // The victim types the newest code (the attacker's): wrong for the victim's own attempt.
    const refused = failure(await verifyCode(email, cb, victim), 400);
    expect(refused.formError).toBe(CODE_MESSAGES.wrong);
    expect(refused.fieldErrors).toEqual({ otp: CODE_MESSAGES.wrong });
    expect(await usersWith(email)).toEqual([]);
    expect(await headerUser(victim)).toBeNull();

    // The victim's own code makes the account, with the victim's details and password.
    const verified = await verifyCode(email, ca, victim);
    expectRedirect(verified, "/profile");
    const signedIn = cookieJar(verified, victim);
    expect(await headerUser(signedIn)).toEqual({ name: "Vera Victim" });
    const rows = await usersWith(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toBe("Vera Victim");
    expect(rows[0]!.emailVerifiedAt).not.toBeNull();
    expectRedirect((await logIn(email, "victimpass")).answer, "/profile");
    expect(failure((await logIn(email, "attackpass")).answer, 401).formError).toBe(MESSAGES.invalidLogin);

    // The attacker's attempt ended with the verification: the attacker's browser is told so, and to register again.
    expect(failure(await verifyCode(email, cb, attacker), 404).formError).toBe(UNKNOWN_ATTEMPT);
    expect(await headerUser(cookieJar(await verifyCode(email, ca, attacker), attacker))).toBeNull();
    expect(await usersWith(email)).toHaveLength(1);
    // And the email registers no more.
    expect(
      failure(await post(signup, "/signup", signupFields(email, { password: "attackpass", confirmPassword: "attackpass" }), attacker), 409)
        .formError,
    ).toBe(MESSAGES.emailTaken);
    expectRedirect((await logIn(email, "victimpass")).answer, "/profile");
  });

  it("takeover: the attacker's browser cannot use the victim's code either", async () => {
    const { email, attacker, ca } = await victimAndAttacker("takeover-reverse");
    expect(failure(await verifyCode(email, ca, attacker), 400).formError).toBe(CODE_MESSAGES.wrong);
    expect(await usersWith(email)).toEqual([]);
  });

  /**
   * The victim fills in the web form (attempt A, bound to the browser, code CA); an attacker
   * registers the same email through the API with a password of their own (attempt B, unbound,
   * code CB, mailed to the victim as well).
   */
  async function webVictimAndApiAttacker(tag: string) {
    const email = freshEmail(tag);
    const victim = cookieJar(
      await post(signup, "/signup", signupFields(email, { name: "Vera Victim", password: "victimpass", confirmPassword: "victimpass" })),
    );
    const ca = await latestCode(email);
    const victimId = asRecord((await sessionData(victim)).pendingSignup).attemptId as string;
    const registered = await call(
      apiRegister.action,
      jsonRequest("POST", "/api/user/auth/register", { name: "Mallory", email, password: "attackpass" }),
    );
    expect(registered.status).toBe(201);
    const attackerId = asRecord(registered.body).attemptId as string;
    const cb = await latestCode(email);
    expect(cb, "the attacker's code is not the victim's (codesNeverRepeat)").not.toBe(ca);
    const row = (handle: string) => db.selectFrom("oneTimeCodes").selectAll().where("handle", "=", handle).executeTakeFirstOrThrow();
    // The web attempt is bound to its browser; the API one is not.
    expect(JSON.parse((await row(victimId)).payload ?? "null")).toMatchObject({ name: "Vera Victim", bound: true });
    expect(JSON.parse((await row(attackerId)).payload ?? "null")).toMatchObject({ name: "Mallory", bound: false });
    return { email, victim, ca, cb, victimId, attackerId, row };
  }

  const apiVerify = (body: unknown) => call(apiVerifyOtp.action, jsonRequest("POST", "/api/user/auth/verifyOtp", body));
  const apiResend = (body: unknown) => call(apiResendOtp.action, jsonRequest("POST", "/api/user/auth/resendOtp", body));

  it(
    "an API registration of the same email cannot touch a web sign-up: " +
      "no tries counted on it, no resend of it, the victim's browser still verifies",
    async () => {
      const { email, victim, ca, cb, victimId, attackerId, row } = await webVictimAndApiAttacker("bound-web");
      const victimBefore = await row(victimId);

      // Through the API without attemptId only the attacker's unbound attempt is in sight (one
      // waits, so no 409): the victim's own code is a wrong code there, and every wrong try
      // counts on the attacker's attempt alone.
      const guesses = [ca];
      for (let n = Number(ca) + 1; guesses.length < MAX_CODE_ATTEMPTS; n++) {
        const guess = String(n % 10000).padStart(4, "0");
        if (guess !== cb) guesses.push(guess);
      }
      for (const [i, otp] of guesses.entries()) {
        const refused = expectApiError(await apiVerify({ email, otp }), 400);
        expect(refused.message).toBe(i < MAX_CODE_ATTEMPTS - 1 ? CODE_MESSAGES.wrong : CODE_MESSAGES.lastWrong);
      }
      expect(Number((await row(attackerId)).attempts)).toBe(MAX_CODE_ATTEMPTS);
      expect(await row(victimId)).toEqual(victimBefore);
      expect(await usersWith(email)).toEqual([]);

      // A resend without attemptId renews the attacker's attempt (the only unbound one), not the victim's.
      await settleMail();
      expect(await mailsTo(email)).toHaveLength(2);
      expect((await apiResend({ email })).status).toBe(200);
      await settleMail();
      expect(await mailsTo(email)).toHaveLength(3);
      expect(Number((await row(attackerId)).attempts)).toBe(0);
      expect(await row(victimId)).toEqual(victimBefore);
      const renewed = await latestCode(email);

      // The victim's browser verifies with its own code: the account has the victim's details and password.
      expectRedirect(await verifyCode(email, ca, victim), "/profile");
      expect((await usersWith(email)).map((u) => u.name)).toEqual(["Vera Victim"]);
      expectRedirect((await logIn(email, "victimpass")).answer, "/profile");
      expect(failure((await logIn(email, "attackpass")).answer, 401).formError).toBe(MESSAGES.invalidLogin);
      // The attacker's attempt ended with it: its renewed code makes nothing, with or without its handle.
      expectApiError(await apiVerify({ email, otp: renewed }), 400);
      expectApiError(await apiVerify({ email, otp: renewed, attemptId: attackerId }), 404);
      expect((await usersWith(email)).map((u) => u.name)).toEqual(["Vera Victim"]);
    },
  );

  it(
    "through the API without attemptId the attacker's code confirms the attacker's attempt only, " + "never the victim's web sign-up",
    async () => {
      const { email, victim, ca, cb, victimId, attackerId, row } = await webVictimAndApiAttacker("bound-web-code");
      // CB was mailed to the victim's address; whoever enters it through the API without attemptId
      // confirms B, with Mallory's details. The bound attempt does not count as a second waiting
      // one (no 409), and its details are never what a code confirms there.
      const answer = await apiVerify({ email, otp: cb });
      expect(answer.status).toBe(200);
      expect(asRecord(asRecord(answer.body).user)).toMatchObject({ name: "Mallory", email });
      expect((await usersWith(email)).map((u) => u.name)).toEqual(["Mallory"]);
      expect((await row(attackerId)).usedAt).not.toBeNull();
      // The victim's attempt was not what the code confirmed (it ends, as every other attempt does
      // once the email has an account): the victim's browser makes no account of it.
      expect(await db.selectFrom("oneTimeCodes").select("id").where("handle", "=", victimId).executeTakeFirst()).toBeUndefined();
      expect(failure(await verifyCode(email, ca, victim), 404).formError).toBe(UNKNOWN_ATTEMPT);
      expect((await usersWith(email)).map((u) => u.name)).toEqual(["Mallory"]);
      expect(failure((await logIn(email, "victimpass")).answer, 401).formError).toBe(MESSAGES.invalidLogin);
    },
  );

  it("'Resend code' in the victim's browser renews the victim's own attempt, not the newer one", async () => {
    const { email, victim, ca, cb } = await victimAndAttacker("takeover-resend");
    expectRedirect(
      await post(verifyOtp, "/verify-otp", { email, intent: "resend" }, victim),
      `/verify-otp?email=${encodeURIComponent(email)}`,
    );
    await settleMail();
    expect(await mailsTo(email)).toHaveLength(3);
    const renewed = await latestCode(email);
    if (renewed !== cb) expect(failure(await verifyCode(email, cb, victim), 400).formError).toBe(CODE_MESSAGES.wrong);
    if (renewed !== ca) failure(await verifyCode(email, ca, victim), 400);
    expectRedirect(await verifyCode(email, renewed, victim), "/profile");
    expect((await usersWith(email)).map((u) => u.name)).toEqual(["Vera Victim"]);
    expectRedirect((await logIn(email, "victimpass")).answer, "/profile");
    failure((await logIn(email, "attackpass")).answer, 401);
  });
});

describe("login page", () => {
  it("/profile without a session redirects to /login?redirectTo=%2Fprofile", async () => {
    const answer = await call(profile.loader, getRequest("/profile"));
    expectRedirect(answer, "/login?redirectTo=%2Fprofile");
  });

  it("a bad password → 401 'Invalid email or password'; empty fields → 400 'Please enter both email and password'", async () => {
    const email = freshEmail("pagelogin-bad");
    await registerVerified(email);
    const bad = failure((await logIn(email, "wrongpass")).answer, 401);
    expect(bad.formError).toBe("Invalid email or password");
    expect(bad.values).toEqual({ email });
    const unknown = failure((await logIn(freshEmail("nobody"), PASSWORD)).answer, 401);
    expect(unknown.formError).toBe("Invalid email or password");
    const empty = failure((await logIn("", "")).answer, 400);
    expect(empty.formError).toBe("Please enter both email and password");
    expect(failure((await logIn(email, "")).answer, 400).formError).toBe("Please enter both email and password");
  });

  it("before its code is verified there is no account: login → 401 'Invalid email or password'", async () => {
    const email = freshEmail("pagelogin-unverified");
    expectRedirect(await post(signup, "/signup", signupFields(email)), /^\/verify-otp\?/);
    const refused = failure((await logIn(email)).answer, 401);
    expect(refused.formError).toBe(MESSAGES.invalidLogin);
    expect(refused.values).toEqual({ email });
    expect(await usersWith(email)).toEqual([]);
  });

  it("success goes to a same-site redirectTo; //evil.example and auth pages go to /profile", async () => {
    const email = freshEmail("pagelogin-redirect");
    await registerVerified(email);
    expectRedirect((await logIn(email, PASSWORD, "", { redirectTo: "/cart?x=1" })).answer, "/cart?x=1");
    for (const redirectTo of ["//evil.example", "https://evil.example/", "/\\evil.example", "/login"]) {
      expectRedirect((await logIn(email, PASSWORD, "", { redirectTo })).answer, "/profile");
    }
  });

  it("the session id changes at login and the old session row is gone", async () => {
    const email = freshEmail("pagelogin-rotate");
    await registerVerified(email);
    // A guest session first (adding to the cart makes one).
    const guest = await post(cart, "/cart", { intent: "add", itemId: String(items.d), quantity: "1" });
    const guestCookie = cookieJar(guest);
    const oldId = await sessionId(guestCookie);
    expect(oldId).toBeTruthy();
    expect(await sessionRow(oldId)).toBeDefined();

    const { answer, cookie } = await logIn(email, PASSWORD, guestCookie, { email: email.toUpperCase() });
    expectRedirect(answer, "/profile");
    expect(cookieValue(cookie, "__session")).not.toBe(cookieValue(guestCookie, "__session"));
    const newId = await sessionId(cookie);
    expect(newId).toBeTruthy();
    expect(newId).not.toBe(oldId);
    expect(await sessionRow(oldId)).toBeUndefined();
    const row = await sessionRow(newId);
    expect(row?.userId).toBeTruthy();
    // The old cookie is a signed-out visitor now.
    expect(await headerUser(guestCookie)).toBeNull();
    expect(await headerUser(cookie)).toEqual({ name: "Page Customer" });
  });

  it("the guest's cart and wishlist join the account's: A 98 + 2 → 99 (capped), B stays, the guest rows go", async () => {
    const email = freshEmail("pagelogin-merge");
    const user = await registerVerified(email);
    // The account's cart from an earlier visit: A x98, B x1; its wishlist holds D.
    const now = new Date().toISOString();
    const userCart = crypto.randomUUID();
    await db.insertInto("carts").values({ id: userCart, userId: user.id, createdAt: now, updatedAt: now }).execute();
    await db
      .insertInto("cartLines")
      .values([
        { cartId: userCart, itemId: items.a, variantId: await defaultVariantId(items.a), quantity: 98, createdAt: now },
        { cartId: userCart, itemId: items.b, variantId: await defaultVariantId(items.b), quantity: 1, createdAt: now },
      ])
      .execute();
    const userWishlist = crypto.randomUUID();
    await db.insertInto("wishlists").values({ id: userWishlist, userId: user.id, createdAt: now, updatedAt: now }).execute();
    await db.insertInto("wishlistItems").values({ wishlistId: userWishlist, itemId: items.d, createdAt: now }).execute();

    // As a guest: A x2 in the cart, C and D saved.
    const added = await post(cart, "/cart", { intent: "add", itemId: String(items.a), quantity: "2" });
    expect(added.status).toBe(200);
    let cookie = cookieJar(added);
    for (const itemId of [items.c, items.d]) {
      const saved = await post(wishlist, "/wishlist", { intent: "add", itemId: String(itemId) }, cookie);
      expect(saved.status).toBeLessThan(400);
      cookie = cookieJar(saved, cookie);
    }
    const session = JSON.parse((await sessionRow(await sessionId(cookie)))!.data) as { cartId: string; wishlistId: string };
    expect(session.cartId).toBeTruthy();
    expect(session.wishlistId).toBeTruthy();

    const { answer, cookie: signedIn } = await logIn(email, PASSWORD, cookie);
    expectRedirect(answer, "/profile");

    const lines = await db
      .selectFrom("cartLines")
      .select(["itemId", "quantity"])
      .where("cartId", "=", userCart)
      .orderBy("itemId")
      .execute();
    expect(lines).toEqual([
      { itemId: items.a, quantity: 99 },
      { itemId: items.b, quantity: 1 },
    ]);
    expect(await db.selectFrom("carts").select("id").where("id", "=", session.cartId).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("cartLines").select("id").where("cartId", "=", session.cartId).execute()).toEqual([]);
    const saved = await db.selectFrom("wishlistItems").select("itemId").where("wishlistId", "=", userWishlist).orderBy("itemId").execute();
    expect(saved.map((r) => r.itemId)).toEqual([items.c, items.d].sort((x, y) => x - y));
    expect(await db.selectFrom("wishlists").select("id").where("id", "=", session.wishlistId).executeTakeFirst()).toBeUndefined();

    // The page and the header now show the account's cart.
    const page = await call(cart.loader, getRequest("/cart", withCookie(signedIn)));
    expect(asRecord(page.body).count).toBe(100);
    expect(asRecord((await call(root.loader, getRequest("/", withCookie(signedIn)))).body)).toMatchObject({
      cartCount: 100,
      wishlistCount: 2,
    });
    expect(JSON.parse((await sessionRow(await sessionId(signedIn)))!.data)).not.toHaveProperty("cartId");
  });

  it("a guest cart moves whole to an account that has none, and the guest row is gone", async () => {
    const email = freshEmail("pagelogin-claim");
    const user = await registerVerified(email);
    const added = await post(cart, "/cart", { intent: "add", itemId: String(items.b), quantity: "3" });
    const cookie = cookieJar(added);
    const { cartId } = JSON.parse((await sessionRow(await sessionId(cookie)))!.data) as { cartId: string };
    expectRedirect((await logIn(email, PASSWORD, cookie)).answer, "/profile");
    const row = await db.selectFrom("carts").select(["id", "userId"]).where("userId", "=", user.id).executeTakeFirstOrThrow();
    expect(await db.selectFrom("cartLines").select(["itemId", "quantity"]).where("cartId", "=", row.id).execute()).toEqual([
      { itemId: items.b, quantity: 3 },
    ]);
    expect(await db.selectFrom("carts").select("id").where("id", "=", cartId).executeTakeFirst()).toBeUndefined();
  });
});

describe("profile page", () => {
  it(
    "the details form saves, " +
      "and a taken email re-renders 409 with 'Failed to update profile. Please try again.' and fieldErrors.email",
    async () => {
      const taken = freshEmail("pageprofile-taken");
      await registerVerified(taken);
      const email = freshEmail("pageprofile");
      await registerVerified(email, "Kiran Rao");
      const { cookie } = await logIn(email);

      const saved = await post(profileDetails, "/profile/details", { name: "Kiran R", email, mobile: "9123456780" }, cookie);
      expectRedirect(saved, "/profile");
      expect(asRecord((await call(profile.loader, getRequest("/profile", withCookie(cookie)))).body).user).toMatchObject({
        name: "Kiran R",
        mobile: "9123456780",
      });

      const conflict = failure(
        await post(profileDetails, "/profile/details", { name: "Kiran R", email: taken, mobile: "", currentPassword: PASSWORD }, cookie),
        409,
      );
      expect(conflict.formError).toBe(PROFILE_FAILED);
      expect(conflict.fieldErrors.email).toBe(MESSAGES.emailInUse);
      expect(conflict.values).toMatchObject({ email: taken });

      const badMobile = failure(await post(profileDetails, "/profile/details", { name: "Kiran R", email, mobile: "12" }, cookie), 400);
      expect(badMobile.formError).toBe(PROFILE_FAILED);
      expect(badMobile.fieldErrors.mobile).toBe(MESSAGES.mobile);
      expect(asRecord((await call(profile.loader, getRequest("/profile", withCookie(cookie)))).body).user).toMatchObject({
        email,
        mobile: "9123456780",
      });
    },
  );

  it("the profile action without a session sends the visitor to /login", async () => {
    const answer = await post(profileDetails, "/profile/details", { name: "X", email: "x@example.com" });
    // back to the page with that form open once signed in
    expectRedirect(answer, "/login?redirectTo=%2Fprofile%2Fdetails");
  });

  it("the password form with a wrong current password → 400 'Your current password is incorrect'", async () => {
    const email = freshEmail("pagepw-wrong");
    await registerVerified(email);
    const { cookie } = await logIn(email);
    const wrong = failure(
      await post(
        profilePassword,
        "/profile/password",
        { currentPassword: "notmypass", newPassword: "newpass99", confirmPassword: "newpass99" },
        cookie,
      ),
      400,
    );
    expect(wrong.formError).toBe("Your current password is incorrect");
    expect(wrong.fieldErrors.currentPassword).toBe(MESSAGES.wrongCurrent);
    const mismatch = failure(
      await post(
        profilePassword,
        "/profile/password",
        { currentPassword: PASSWORD, newPassword: "newpass99", confirmPassword: "newpass98" },
        cookie,
      ),
      400,
    );
    expect(mismatch.formError).toBe(MESSAGES.passwordsDiffer);
    // Still signed in, password unchanged.
    expect(await headerUser(cookie)).not.toBeNull();
  });

  it("a whitespace-only new password counts as missing", async () => {
    const email = freshEmail("pagepw-blank");
    await registerVerified(email);
    const { cookie } = await logIn(email);
    const blank = failure(
      await post(
        profilePassword,
        "/profile/password",
        { currentPassword: PASSWORD, newPassword: "      ", confirmPassword: "      " },
        cookie,
      ),
      400,
    );
    expect(blank.formError).toBe(MESSAGES.fillRequired);
    expect(blank.fieldErrors).toEqual({ newPassword: MESSAGES.fillRequired, confirmPassword: MESSAGES.fillRequired });
    expectRedirect((await logIn(email, PASSWORD)).answer, "/profile");
  });

  it("a reset link mailed before a password change no longer works after it (a failed change leaves it alone)", async () => {
    const email = freshEmail("pagepw-reset");
    await registerVerified(email, "Careful");
    const { cookie } = await logIn(email);
    expectRedirect(await post(forgotPassword, "/forgot-password", { email }), "/forgot-password?sent=1");
    await settleMail();
    const link = new URL(await latestResetLink(email));
    const token = link.searchParams.get("token")!;
    const linkPage = async () => asRecord((await call(resetPassword.loader, getRequest(`${link.pathname}${link.search}`))).body).token;
    expect(await linkPage()).toBe(token);

    failure(
      await post(
        profilePassword,
        "/profile/password",
        { currentPassword: "notmypass", newPassword: "changed12", confirmPassword: "changed12" },
        cookie,
      ),
      400,
    );
    expect(await linkPage()).toBe(token);

    const changed = await post(
      profilePassword,
      "/profile/password",
      { currentPassword: PASSWORD, newPassword: "changed12", confirmPassword: "changed12" },
      cookie,
    );
    expectRedirect(changed, "/profile");
    expect(await linkPage()).toBeNull();
    const refused = failure(
      await post(resetPassword, "/reset-password", { token, password: "stolen123", confirmPassword: "stolen123" }),
      400,
    );
    expect(refused.formError).toBe(RESET_INVALID);
    expect(failure((await logIn(email, "stolen123")).answer, 401).formError).toBe(MESSAGES.invalidLogin);
    expectRedirect((await logIn(email, "changed12")).answer, "/profile");
  });

  it("an email change on the profile page ends the reset links still out", async () => {
    const email = freshEmail("pageprofile-reset");
    await registerVerified(email, "Mover");
    const { cookie } = await logIn(email);
    expectRedirect(await post(forgotPassword, "/forgot-password", { email }), "/forgot-password?sent=1");
    await settleMail();
    const token = new URL(await latestResetLink(email)).searchParams.get("token")!;
    const moved = freshEmail("pageprofile-reset-moved");
    // A new email takes the current password, then the code mailed to it (ADR 0006).
    const asked = await post(
      profileDetails,
      "/profile/details",
      { name: "Mover", email: moved, mobile: "", currentPassword: PASSWORD },
      cookie,
    );
    expectRedirect(asked, "/profile");
    const confirm = new URLSearchParams();
    for (const digit of await latestEmailChangeCode(moved)) confirm.append("code", digit);
    expectRedirect(await call(profileConfirmEmail.action, postForm("/profile/email/confirm", confirm, cookie)), "/profile");
    expect(
      failure(await post(resetPassword, "/reset-password", { token, password: "stolen123", confirmPassword: "stolen123" }), 400).formError,
    ).toBe(RESET_INVALID);
    // The old address is told of the change.
    await settleMail();
    expect((await mailsTo(email)).some((m) => /email address was changed/i.test(m.subject))).toBe(true);
    expectRedirect((await logIn(moved, PASSWORD)).answer, "/profile");
  });

  it(`profile saves are limited per account: after ${LIMITS.profile.max} the form answers 429`, async () => {
    const email = freshEmail("pageprofile-limit");
    await registerVerified(email, "Fidget");
    const { cookie } = await logIn(email);
    for (let i = 1; i <= LIMITS.profile.max; i++) {
      expectRedirect(await post(profileDetails, "/profile/details", { name: `Fidget ${i}`, email, mobile: "" }, cookie), "/profile");
    }
    const limited = failure(await post(profileDetails, "/profile/details", { name: "Fidget again", email, mobile: "" }, cookie), 429);
    expect(limited.formError).toMatch(/too many/i);
    expect(asRecord((await call(profile.loader, getRequest("/profile", withCookie(cookie)))).body).user).toMatchObject({
      name: `Fidget ${LIMITS.profile.max}`,
    });
  });

  it("a password change keeps this browser signed in (new cookie), ends the other sessions and revokes API tokens", async () => {
    const email = freshEmail("pagepw");
    const user = await registerVerified(email, "Changer");
    const here = (await logIn(email)).cookie;
    const elsewhere = (await logIn(email)).cookie;
    const token = await issueToken(user.id);
    const elsewhereId = await sessionId(elsewhere);
    expect(await headerUser(elsewhere)).toEqual({ name: "Changer" });

    const changed = await post(
      profilePassword,
      "/profile/password",
      { currentPassword: PASSWORD, newPassword: "brandnew1", confirmPassword: "brandnew1" },
      here,
    );
    expectRedirect(changed, "/profile");
    expect(changed.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(true);
    const after = cookieJar(changed, here);
    expect(cookieValue(after, "__session")).not.toBe(cookieValue(here, "__session"));

    expect(await headerUser(after)).toEqual({ name: "Changer" });
    expect(await headerUser(here)).toBeNull();
    expect(await headerUser(elsewhere)).toBeNull();
    expect(await sessionRow(elsewhereId)).toBeUndefined();
    const sessions = await db.selectFrom("sessions").select("id").where("userId", "=", user.id).execute();
    expect(sessions.map((s) => s.id)).toEqual([await sessionId(after)]);
    expect((await call(authProfile.loader, getRequest("/api/auth/profile", { Authorization: `Bearer ${token}` }))).status).toBe(401);
    // The notice goes out in the background.
    await settleMail();
    expect((await mailsTo(email)).some((m) => /password was changed/i.test(m.subject))).toBe(true);

    expect((await logIn(email, PASSWORD)).answer.status).toBe(401);
    expectRedirect((await logIn(email, "brandnew1")).answer, "/profile");
  });
});

describe("forgot and reset password", () => {
  it("an unknown and a known email get the same redirect; only the known one gets a mail", async () => {
    const known = freshEmail("forgot-known");
    await registerVerified(known);
    const unknown = freshEmail("forgot-unknown");
    const a = await post(forgotPassword, "/forgot-password", { email: unknown });
    const b = await post(forgotPassword, "/forgot-password", { email: known.toUpperCase() });
    expectRedirect(a, "/forgot-password?sent=1");
    expectRedirect(b, "/forgot-password?sent=1");
    expect(a.headers.getSetCookie()).toEqual(b.headers.getSetCookie());
    // The mail goes out in the background, so the answer is the same either way.
    await settleMail();
    expect(await mailsTo(unknown)).toEqual([]);
    expect(await latestResetLink(known)).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=/);
    expect(failure(await post(forgotPassword, "/forgot-password", { email: "nope" }), 400).fieldErrors.email).toBe(MESSAGES.email);
  });

  it("the mailed link sets a new password once; login works with the new one, not the old, and sessions end", async () => {
    const email = freshEmail("reset");
    const user = await registerVerified(email, "Resetter");
    const { cookie } = await logIn(email);
    const token = await issueToken(user.id);
    expectRedirect(await post(forgotPassword, "/forgot-password", { email }), "/forgot-password?sent=1");
    await settleMail();
    const link = new URL(await latestResetLink(email));
    const resetToken = link.searchParams.get("token")!;

    const page = await call(resetPassword.loader, getRequest(`${link.pathname}${link.search}`));
    expect(asRecord(page.body).token).toBe(resetToken);

    const mismatch = failure(
      await post(resetPassword, "/reset-password", { token: resetToken, password: "resetpass1", confirmPassword: "resetpass2" }),
      400,
    );
    expect(mismatch.formError).toBe(MESSAGES.passwordsDiffer);

    const done = await post(resetPassword, "/reset-password", { token: resetToken, password: "resetpass1", confirmPassword: "resetpass1" });
    expectRedirect(done, "/login");

    expect(failure((await logIn(email, PASSWORD)).answer, 401).formError).toBe(MESSAGES.invalidLogin);
    expectRedirect((await logIn(email, "resetpass1")).answer, "/profile");
    // Every earlier sign-in ended.
    expect(await headerUser(cookie)).toBeNull();
    expect((await call(authProfile.loader, getRequest("/api/auth/profile", { Authorization: `Bearer ${token}` }))).status).toBe(401);

    // The token works once.
    const again = failure(
      await post(resetPassword, "/reset-password", { token: resetToken, password: "another12", confirmPassword: "another12" }),
      400,
    );
    expect(again.formError).toBe(RESET_INVALID);
    expect(asRecord((await call(resetPassword.loader, getRequest(`${link.pathname}${link.search}`))).body).token).toBeNull();
    expect(failure((await logIn(email, "another12")).answer, 401).formError).toBe(MESSAGES.invalidLogin);
  });

  it("a forged Host/Origin pair cannot change the link's address: it is PUBLIC_URL or this server on localhost", async () => {
    const email = freshEmail("forgot-host");
    await registerVerified(email);
    const forged = new Request("http://evil.example/forgot-password", {
      method: "POST",
      headers: {
        Host: "evil.example",
        Origin: "http://evil.example",
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-Proto": "https",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ email }).toString(),
    });
    // The pair is consistent, so the request passes the origin check...
    expectRedirect(await call(forgotPassword.action, forged), "/forgot-password?sent=1");
    await settleMail();
    // ...but the mailed link points at the shop, not at the Host the request named.
    const origin = env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, "") : "http://localhost:3000";
    const link = await latestResetLink(email);
    expect(link.startsWith(`${origin}/reset-password?token=`)).toBe(true);
    const mail = (await mailsTo(email)).filter((m) => /reset your/i.test(m.subject)).at(-1)!;
    expect(`${mail.text}\n${mail.html ?? ""}`).not.toContain("evil.example");
    // And the link works on the shop.
    const token = new URL(link).searchParams.get("token")!;
    expectRedirect(await post(resetPassword, "/reset-password", { token, password: "hostsafe1", confirmPassword: "hostsafe1" }), "/login");
  });

  it("a whitespace-only new password counts as missing, and leaves the link usable", async () => {
    const email = freshEmail("reset-blank");
    await registerVerified(email);
    expectRedirect(await post(forgotPassword, "/forgot-password", { email }), "/forgot-password?sent=1");
    await settleMail();
    const token = new URL(await latestResetLink(email)).searchParams.get("token")!;
    const blank = failure(await post(resetPassword, "/reset-password", { token, password: "      ", confirmPassword: "      " }), 400);
    expect(blank.formError).toBe(MESSAGES.fillRequired);
    expect(blank.fieldErrors).toEqual({ password: MESSAGES.fillRequired, confirmPassword: MESSAGES.fillRequired });
    expectRedirect(await post(resetPassword, "/reset-password", { token, password: "notblank1", confirmPassword: "notblank1" }), "/login");
    expectRedirect((await logIn(email, "notblank1")).answer, "/profile");
  });

  it(
    `the token is checked before the costly hash: dead tokens are refused at once (never limited), ` +
      `a live one is limited (${LIMITS.resetSubmit.max}) on its own`,
    async () => {
      const fresh = () => db.deleteFrom("rateLimits").where("key", "like", "reset-submit%").execute();
      await fresh();
      try {
        const started = Date.now();
        await hashPassword("one hash, for scale");
        const oneHash = Date.now() - started;

        const forged = (i: number) => ({ token: `${900_000 + i}.${"B".repeat(43)}`, password: "forged123", confirmPassword: "forged123" });
        const before = Date.now();
        for (let i = 0; i < LIMITS.resetSubmit.max + 5; i++) {
          expect(failure(await post(resetPassword, "/reset-password", forged(i)), 400).formError).toBe(RESET_INVALID);
        }
        // Had each been hashed first, they would have taken fifteen hashes.
        expect(Date.now() - before).toBeLessThan(Math.max(3 * oneHash, 200));

        // A live link still works after all those, and is limited on its own key.
        const email = freshEmail("reset-limit");
        await registerVerified(email);
        expectRedirect(await post(forgotPassword, "/forgot-password", { email }), "/forgot-password?sent=1");
        await settleMail();
        const token = new URL(await latestResetLink(email)).searchParams.get("token")!;
        const id = token.split(".")[0];
        for (let i = 0; i < LIMITS.resetSubmit.max; i++) await rateLimitClient(LIMITS.resetSubmit, UNKNOWN_CLIENT, `token:${id}`);
        const limited = await post(resetPassword, "/reset-password", { token, password: "stillworks1", confirmPassword: "stillworks1" });
        expect(failure(limited, 429).formError).toMatch(/too many/i);
        expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
        await fresh();
        expectRedirect(
          await post(resetPassword, "/reset-password", { token, password: "stillworks1", confirmPassword: "stillworks1" }),
          "/login",
        );
      } finally {
        await fresh();
      }
    },
  );

  it("a forged token is refused", async () => {
    const answer = failure(
      await post(resetPassword, "/reset-password", { token: `1.${"A".repeat(43)}`, password: "forged123", confirmPassword: "forged123" }),
      400,
    );
    expect(answer.formError).toBe(RESET_INVALID);
    expect(asRecord((await call(resetPassword.loader, getRequest("/reset-password?token=garbage"))).body).token).toBeNull();
  });
});

describe("logout page action", () => {
  it("deletes the session row and redirects to the given same-site redirectTo", async () => {
    const email = freshEmail("pagelogout");
    await registerVerified(email);
    const { cookie } = await logIn(email);
    const id = await sessionId(cookie);
    expect(await sessionRow(id)).toBeDefined();

    const out = await post(logout, "/logout", { redirectTo: "/login" }, cookie);
    expectRedirect(out, "/login");
    expect(await sessionRow(id)).toBeUndefined();
    const cleared = out.headers.getSetCookie().find((c) => c.startsWith("__session="));
    expect(cleared).toMatch(/^__session=;|Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(await headerUser(cookie)).toBeNull();
    expect(await headerUser(cookieJar(out, cookie))).toBeNull();
  });

  it("a foreign redirectTo goes to / instead", async () => {
    const email = freshEmail("pagelogout-evil");
    await registerVerified(email);
    const { cookie } = await logIn(email);
    expectRedirect(await post(logout, "/logout", { redirectTo: "//evil.example" }, cookie), "/");
    expect(await headerUser(cookie)).toBeNull();
  });

  it("GET /logout signs nobody out", async () => {
    const email = freshEmail("pagelogout-get");
    await registerVerified(email);
    const { cookie } = await logIn(email);
    expectRedirect(await call(logout.loader, getRequest("/logout", withCookie(cookie))), "/");
    expect(await headerUser(cookie)).not.toBeNull();
  });
});
