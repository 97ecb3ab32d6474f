// Staff sign-in through its routes and models (docs/decisions/0033): email and password, then the
// code; the built-in owner's ADMIN_PASSWORD and ADMIN_PASSWORD_LOGIN=off; two-step setup; codes
// never accepted twice (also by two requests racing); recovery codes; rate limits per account and
// per address that a stranger cannot use to lock a staff member out; the staff session's idle and
// absolute windows, rotation at sign-in, 'Sign out everywhere' and a password change ending the
// account's other sessions; and no TOTP or recovery secret in any answer but the setup page's.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { LIMITS, SLOWDOWN, SUBJECT_SPREAD } from "~/lib/rate-limit.server";
import { getSession } from "~/lib/session.server";
import { adminPassword } from "~/lib/admin-password.server";
import { INVALID_STAFF_LOGIN, verifyStaffPassword } from "~/models/staff/sign-in.server";
import { findStaff, TWO_STEP_FOR_ALL_KEY } from "~/models/staff/staff.server";
import { confirmTwoStep, INVALID_CODE, newTotpSecret, timeStep, totpCode, verifyStaffCode } from "~/models/staff/two-step.server";
import { actorOf } from "~/models/staff/staff.server";
import * as loginRoute from "~/routes/admin_.login";
import * as codeRoute from "~/routes/admin_.login_.code";
import * as setupRoute from "~/routes/admin_.login_.two-step";
import * as accountRoute from "~/routes/admin.account";
import { grantAdmin } from "~/web/sign-in.server";
import {
  ADMIN_FORBIDDEN,
  getStaffVisitor,
  requireStaff,
  STAFF_ABSOLUTE_MS,
  STAFF_IDLE_MS,
  TWO_STEP_SETUP_NEEDED,
} from "~/web/staff.server";
import { ADMIN_PASSWORD_LOGIN_OFF, STAFF_STEP_EXPIRED } from "~/utils/admin-access";
import { createStaff, staffCookie } from "../support/staff";
import { getRequest, mergeCookies, ORIGIN } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, setCookies } from "../support/route-calls";

beforeAll(async () => {
  await ready;
});

const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";

function formPost(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Host: "localhost:3000", Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", "User-Agent": UA, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const login = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  call(loginRoute.action, formPost("/admin/login", fields, headers));
const sendCode = (cookie: string, code: string, headers: Record<string, string> = {}) =>
  call(codeRoute.action, formPost("/admin/login/code", { code }, { Cookie: cookie, ...headers }));

const sessionCookies = (answer: Answer) => setCookies(answer).filter((c) => c.startsWith("__session="));

async function sessionOf(cookie: string) {
  const session = await getSession(getRequest("/", { Cookie: cookie }));
  return { id: session.id, data: session.data };
}

const visitorOf = (cookie: string) => getStaffVisitor(getRequest("/admin", { Cookie: cookie }));

/** The text of everything an answer carries (body and headers), to look for secrets in. */
const textOf = (answer: Answer) => JSON.stringify(answer.body) + JSON.stringify([...answer.headers.entries()]);

/** The password step of an account that needs a code: the cookie holding the pending step. */
async function passwordStep(staff: { email: string; password: string }, headers: Record<string, string> = {}): Promise<string> {
  const answer = await login({ email: staff.email, password: staff.password }, headers);
  expect(answer.status).toBe(303);
  expect(answer.headers.get("Location")).toBe("/admin/login/code");
  return mergeCookies(sessionCookies(answer), headers.Cookie ?? "");
}

async function signInAudits(staffId: number) {
  return db.selectFrom("auditLog").selectAll().where("staffId", "=", staffId).where("action", "=", "sign_in").execute();
}

describe("the password step", () => {
  it("a wrong password, an unknown email, a disabled account and one without a password yet: one answer, nothing written", async () => {
    const staff = await createStaff("fulfilment");
    const disabled = await createStaff("support");
    await db.updateTable("staff").set({ active: 0 }).where("id", "=", disabled.id).execute();
    const invited = await createStaff("support");
    await db.updateTable("staff").set({ passwordHash: null }).where("id", "=", invited.id).execute();
    const tries = [
      { email: staff.email, password: "not-the-password" },
      { email: `nobody-${Date.now()}@example.com`, password: staff.password },
      { email: disabled.email, password: disabled.password },
      { email: invited.email, password: invited.password },
    ];
    for (const fields of tries) {
      for (const respond of ["", "inline"]) {
        const answer = await login(respond ? { ...fields, respond } : fields);
        expect(answer.status, fields.email).toBe(401);
        expect(asRecord(answer.body).message).toBe(INVALID_STAFF_LOGIN);
        expect(sessionCookies(answer)).toEqual([]);
      }
    }
    for (const id of [staff.id, disabled.id, invited.id]) {
      expect((await findStaff(id))?.lastSignInAt).toBeNull();
      expect(await signInAudits(id)).toEqual([]);
    }
    // A customer's credentials are not staff credentials (separate tables).
    expect((await login({ email: "customer@example.com", password: "whatever1" })).status).toBe(401);
  });

  it("the right password without two-step: a fresh session signed in as the staff member, the built-in flag gone", async () => {
    const staff = await createStaff("fulfilment");
    const before = mergeCookies([await grantAdmin(getRequest("/"))]);
    const old = await sessionOf(before);
    expect(old.data.isAdmin).toBe(true);
    const answer = await login({ email: ` ${staff.email.toUpperCase()} `, password: staff.password }, { Cookie: before });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/admin");
    const cookie = mergeCookies(sessionCookies(answer), before);
    const fresh = await sessionOf(cookie);
    expect(fresh.id).toBeTruthy();
    expect(fresh.id).not.toBe(old.id);
    expect(await db.selectFrom("sessions").select("id").where("id", "=", old.id).executeTakeFirst()).toBeUndefined();
    expect(fresh.data).toMatchObject({ staffId: staff.id, staffDevice: { userAgent: UA } });
    expect(fresh.data.isAdmin).toBeUndefined();
    expect(fresh.data.adminGrant).toBeUndefined();
    expect(Date.parse(fresh.data.staffSignedInAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await db.selectFrom("sessions").select("staffId").where("id", "=", fresh.id).executeTakeFirstOrThrow()).staffId).toBe(staff.id);
    expect((await visitorOf(cookie))?.actor).toMatchObject({ kind: "staff", staffId: staff.id, role: "fulfilment" });
    expect((await findStaff(staff.id))?.lastSignInAt).not.toBeNull();
    const audits = await signInAudits(staff.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ entity: "staff", entityId: String(staff.id) });
    expect(audits[0]!.actor).toContain(staff.name);
    // The password itself is nowhere in the session.
    expect(JSON.stringify(fresh.data)).not.toContain(staff.password);
  });
});

describe("the code step", () => {
  it("an account with two-step: the pending step (never the password), a wrong code refused, the right one signs in", async () => {
    const secret = newTotpSecret();
    const staff = await createStaff("manager", { totpSecret: secret });
    const cookie = await passwordStep(staff);
    const pending = await sessionOf(cookie);
    expect(pending.data.staffPending).toMatchObject({ staffId: staff.id, setup: false });
    expect(Date.parse(pending.data.staffPending!.until) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(JSON.stringify(pending.data)).not.toContain(staff.password);
    expect(pending.data.staffId).toBeUndefined();
    expect(await visitorOf(cookie)).toBeNull();
    expect((await call(codeRoute.loader, getRequest("/admin/login/code", { Cookie: cookie }))).status).toBe(200);

    const right = await totpCode(secret, timeStep());
    const wrong = right === "000000" ? "111111" : "000000";
    const refused = await sendCode(cookie, wrong);
    expect(refused.status).toBe(400);
    expect(asRecord(refused.body).message).toBe(INVALID_CODE);
    expect(sessionCookies(refused)).toEqual([]);
    expect(await visitorOf(cookie)).toBeNull();

    const answer = await sendCode(cookie, right.slice(0, 3) + " " + right.slice(3));
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/admin");
    const signedIn = mergeCookies(sessionCookies(answer), cookie);
    const fresh = await sessionOf(signedIn);
    expect(fresh.id).not.toBe(pending.id);
    expect(fresh.data.staffPending).toBeUndefined();
    expect((await visitorOf(signedIn))?.staff?.id).toBe(staff.id);
    // The pending step's cookie opens nothing any more.
    expect(await visitorOf(cookie)).toBeNull();
    expect(textOf(answer)).not.toContain(secret);
  });

  it("the dialog's variant: the password step answers { step: 'code' } in place", async () => {
    const staff = await createStaff("support", { totpSecret: newTotpSecret() });
    const answer = await login({ email: staff.email, password: staff.password, respond: "inline" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ step: "code" });
    expect(sessionCookies(answer)).toHaveLength(1);
  });

  it("a code is never accepted twice: again later, and by two requests racing with it (only one wins)", async () => {
    const secret = newTotpSecret();
    const staff = await createStaff("owner", { totpSecret: secret });
    const code = await totpCode(secret, timeStep());
    expect((await sendCode(await passwordStep(staff), code)).status).toBe(303);
    const again = await sendCode(await passwordStep(staff), code);
    expect(again.status).toBe(400);
    expect(asRecord(again.body).message).toBe(INVALID_CODE);

    // The next step's code (within the drift allowed), sent by two browsers at once.
    const next = await totpCode(secret, timeStep() + 1);
    const [a, b] = [await passwordStep(staff), await passwordStep(staff)];
    const answers = await Promise.all([sendCode(a, next), sendCode(b, next)]);
    expect(answers.map((x) => x.status).sort()).toEqual([303, 400]);
    expect(await signInAudits(staff.id)).toHaveLength(2);
    // An older step than the last accepted one is refused too.
    const older = await totpCode(secret, timeStep() - 1);
    expect((await sendCode(await passwordStep(staff), older)).status).toBe(400);
  });

  it("a recovery code signs in once; a used one is refused", async () => {
    const staff = await createStaff("manager", { totpSecret: null });
    const secret = newTotpSecret();
    const codes = await confirmTwoStep(
      staff.id,
      secret,
      await totpCode(secret, timeStep()),
      { ip: null },
      actorOf((await findStaff(staff.id))!),
    );
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await db.selectFrom("staffRecoveryCodes").select("codeHash").where("staffId", "=", staff.id).execute();
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(stored.map((r) => r.codeHash).join()).not.toContain(code.replace("-", ""));
    const first = await sendCode(await passwordStep(staff), codes[0]!.toLowerCase());
    expect(first.status).toBe(303);
    const reused = await sendCode(await passwordStep(staff), codes[0]!);
    expect(reused.status).toBe(400);
    expect(asRecord(reused.body).message).toBe(INVALID_CODE);
    // Two racing with one unused code: one wins.
    const [a, b] = [await passwordStep(staff), await passwordStep(staff)];
    const raced = await Promise.all([sendCode(a, codes[1]!), sendCode(b, codes[1]!)]);
    expect(raced.map((x) => x.status).sort()).toEqual([303, 400]);
  });

  it("without a pending step: 403; after its five minutes: 401, start again", async () => {
    const secret = newTotpSecret();
    const staff = await createStaff("manager", { totpSecret: secret });
    // No step at all (a stranger): refused as every admin action is.
    const none = await sendCode("", await totpCode(secret, timeStep()));
    expect(none.status).toBe(403);
    expect(asRecord(none.body).message).toBe(ADMIN_FORBIDDEN);
    expect((await call(codeRoute.loader, getRequest("/admin/login/code"))).headers.get("Location")).toBe("/");
    const cookie = await passwordStep(staff);
    const { id, data } = await sessionOf(cookie);
    const stale = { ...data, staffPending: { ...data.staffPending!, until: new Date(Date.now() - 1000).toISOString() } };
    await db
      .updateTable("sessions")
      .set({ data: JSON.stringify(stale) })
      .where("id", "=", id)
      .execute();
    const late = await sendCode(cookie, await totpCode(secret, timeStep()));
    expect(late.status).toBe(401);
    expect(asRecord(late.body).message).toBe(STAFF_STEP_EXPIRED);
    const page = await call(codeRoute.loader, getRequest("/admin/login/code", { Cookie: cookie }));
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/?admin-access");
  });
});

describe("two-step setup", () => {
  it("a code required and none set up: the QR and secret (only there), the first code, ten recovery codes, signed in", async () => {
    const staff = await createStaff("manager", { totpSecret: null });
    const answer = await login({ email: staff.email, password: staff.password, respond: "inline" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/admin/login/two-step");
    let cookie = mergeCookies(sessionCookies(answer));
    expect(await visitorOf(cookie)).toBeNull();

    const page = await call(setupRoute.loader, getRequest("/admin/login/two-step", { Cookie: cookie }));
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    cookie = mergeCookies(sessionCookies(page), cookie);
    const { secret, qr } = asRecord(page.body) as { secret: string; qr: string };
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(qr).toMatch(/^<svg[\s\S]*<\/svg>$/);
    // The same secret on a reload, until it is confirmed.
    expect(asRecord((await call(setupRoute.loader, getRequest("/admin/login/two-step", { Cookie: cookie }))).body).secret).toBe(secret);

    const wrong = await call(
      setupRoute.action,
      formPost("/admin/login/two-step", { intent: "confirm", code: "123456" }, { Cookie: cookie }),
    );
    expect([400]).toContain(wrong.status);
    expect((await findStaff(staff.id))?.twoStepEnabled).toBe(false);

    const step = timeStep();
    const done = await call(
      setupRoute.action,
      formPost("/admin/login/two-step", { intent: "confirm", code: await totpCode(secret, step) }, { Cookie: cookie }),
    );
    expect(done.status).toBe(200);
    const codes = asRecord(done.body).recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    const signedIn = mergeCookies(sessionCookies(done), cookie);
    expect((await visitorOf(signedIn))?.staff?.id).toBe(staff.id);
    expect((await sessionOf(signedIn)).data.staffSetupSecret).toBeUndefined();
    const row = await db.selectFrom("staff").select(["totpSecret", "totpLastStep"]).where("id", "=", staff.id).executeTakeFirstOrThrow();
    expect(row.totpSecret).toBe(secret);
    expect(row.totpLastStep).toBeGreaterThanOrEqual(step - 1);

    // The account page never shows the secret or the codes again.
    const account = await call(accountRoute.loader, getRequest("/admin/account", { Cookie: signedIn }));
    expect(account.status).toBe(200);
    for (const hidden of [secret, ...codes]) expect(textOf(account)).not.toContain(hidden);
    expect(asRecord(account.body).codesLeft).toBe(10);
  });

  it("two-step required after signing in: page views go to the setup page, writes answer 403", async () => {
    const staff = await createStaff("support");
    const cookie = await staffCookie(staff);
    await expect(requireStaff(getRequest("/admin/orders", { Cookie: cookie }), "orders.read")).resolves.toBeTruthy();
    await db.updateTable("staff").set({ twoStepRequired: 1 }).where("id", "=", staff.id).execute();
    const page = await requireStaff(getRequest("/admin/orders", { Cookie: cookie }), "orders.read").catch((e: unknown) => e);
    expect(page).toBeInstanceOf(Response);
    expect((page as Response).status).toBe(302);
    expect((page as Response).headers.get("Location")).toBe("/admin/login/two-step");
    const write = await requireStaff(formPost("/admin/orders", {}, { Cookie: cookie }), "orders.read").catch((e: unknown) => e);
    expect((write as Response).status).toBe(403);
    expect(await (write as Response).json()).toEqual({ message: TWO_STEP_SETUP_NEEDED });
    // The setup page itself opens for them.
    expect((await call(setupRoute.loader, getRequest("/admin/login/two-step", { Cookie: cookie }))).status).toBe(200);
  });

  it("two-step for all staff (the owner's setting) asks a code of a fulfilment account at its next sign-in", async () => {
    const staff = await createStaff("fulfilment");
    await db
      .insertInto("settings")
      .values({ key: TWO_STEP_FOR_ALL_KEY, value: "1", updatedAt: new Date().toISOString() })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: "1" }))
      .execute();
    try {
      const answer = await login({ email: staff.email, password: staff.password });
      expect(answer.headers.get("Location")).toBe("/admin/login/two-step");
    } finally {
      await db.deleteFrom("settings").where("key", "=", TWO_STEP_FOR_ALL_KEY).execute();
    }
  });
});

describe("rate limits: per account and per address, and no lockout by strangers", () => {
  const tryPassword = (email: string, password: string, ip: string) =>
    verifyStaffPassword(email, password, { ip }).then(
      () => 200,
      (error: { status: number }) => error.status,
    );

  it("wrong passwords from one address: that address is refused; the staff member, from theirs, signs in at once", async () => {
    const staff = await createStaff("support");
    const saved = LIMITS.staffLogin.max;
    LIMITS.staffLogin.max = 3;
    try {
      for (let i = 0; i < LIMITS.staffLogin.max; i++) expect(await tryPassword(staff.email, "guess-guess", "198.51.100.166")).toBe(401);
      expect(await tryPassword(staff.email, staff.password, "198.51.100.166")).toBe(429);
      const started = Date.now();
      expect(await tryPassword(staff.email, staff.password, "203.0.113.110")).toBe(200);
      expect(Date.now() - started).toBeLessThan(SLOWDOWN.ms);
      // Only failures count: right passwords from one address never use its tries up.
      for (let i = 0; i < LIMITS.staffLogin.max + 1; i++) expect(await tryPassword(staff.email, staff.password, "203.0.113.111")).toBe(200);
    } finally {
      LIMITS.staffLogin.max = saved;
    }
  });

  it(`from ${SUBJECT_SPREAD} addresses and more: the staff member still signs in; a stranger past their share is refused`, async () => {
    const staff = await createStaff("support");
    const saved = { max: LIMITS.staffLogin.max, pause: SLOWDOWN.ms };
    LIMITS.staffLogin.max = 2;
    SLOWDOWN.ms = 400;
    try {
      for (let a = 1; a <= SUBJECT_SPREAD; a++) {
        for (let i = 0; i < LIMITS.staffLogin.max; i++)
          expect(await tryPassword(staff.email, "guess-guess", `198.51.100.${170 + a}`)).toBe(401);
      }
      const stranger = "198.51.100.199";
      for (let i = 0; i < SLOWDOWN.fairShare; i++) expect(await tryPassword(staff.email, "guess-guess", stranger)).toBe(401);
      expect(await tryPassword(staff.email, "guess-guess", stranger)).toBe(429);
      expect(await tryPassword(staff.email, staff.password, "203.0.113.112")).toBe(200);
    } finally {
      LIMITS.staffLogin.max = saved.max;
      SLOWDOWN.ms = saved.pause;
    }
  });

  it("wrong codes per account and address: the guesser's address is refused, the staff member's code still passes", async () => {
    const secret = newTotpSecret();
    const staff = await createStaff("manager", { totpSecret: secret });
    const saved = LIMITS.staffCode.max;
    LIMITS.staffCode.max = 3;
    try {
      const right = await totpCode(secret, timeStep());
      const wrong = right === "000000" ? "111111" : "000000";
      const guesser = { ip: "198.51.100.180" };
      for (let i = 0; i < LIMITS.staffCode.max; i++)
        await expect(verifyStaffCode(staff.id, wrong, guesser)).rejects.toMatchObject({ status: 400 });
      await expect(verifyStaffCode(staff.id, right, guesser)).rejects.toMatchObject({ status: 429 });
      await expect(verifyStaffCode(staff.id, right, { ip: "203.0.113.120" })).resolves.toBe("totp");
    } finally {
      LIMITS.staffCode.max = saved;
    }
  });
});

describe("the built-in owner (ADMIN_PASSWORD)", () => {
  it("the password alone signs in the built-in owner, recorded in the audit log as them", async () => {
    const answer = await login({ password: adminPassword()! });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/admin");
    const cookie = mergeCookies(sessionCookies(answer));
    expect((await visitorOf(cookie))?.actor).toMatchObject({ kind: "builtin" });
    const row = await db.selectFrom("auditLog").selectAll().where("action", "=", "sign_in").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ entity: "staff", staffId: null, actor: "Built-in owner" });
    // An empty email field is the password alone (the dialog's built-in owner path).
    expect((await login({ email: "  ", password: adminPassword()! })).status).toBe(303);
  });

  it("ADMIN_PASSWORD_LOGIN=off: 403 with a clear message, and an earlier grant opens nothing; staff sign in as before", async () => {
    const granted = mergeCookies([await grantAdmin(getRequest("/"))]);
    const staff = await createStaff("fulfilment");
    const saved = env.ADMIN_PASSWORD_LOGIN;
    env.ADMIN_PASSWORD_LOGIN = false;
    try {
      for (const respond of ["", "inline"]) {
        const answer = await login(respond ? { password: adminPassword()!, respond } : { password: adminPassword()! });
        expect(answer.status).toBe(403);
        expect(asRecord(answer.body).message).toBe(ADMIN_PASSWORD_LOGIN_OFF);
        expect(sessionCookies(answer)).toEqual([]);
      }
      expect(await visitorOf(granted)).toBeNull();
      expect((await login({ email: staff.email, password: staff.password })).status).toBe(303);
    } finally {
      env.ADMIN_PASSWORD_LOGIN = saved;
    }
  });
});

describe("staff sessions", () => {
  async function setSessionTimes(cookie: string, signedInAgoMs: number, seenAgoMs: number) {
    const { id, data } = await sessionOf(cookie);
    const now = Date.now();
    await db
      .updateTable("sessions")
      .set({
        data: JSON.stringify({ ...data, staffSignedInAt: new Date(now - signedInAgoMs).toISOString() }),
        lastSeenAt: new Date(now - seenAgoMs).toISOString(),
      })
      .where("id", "=", id)
      .execute();
  }
  const HOUR = 60 * 60 * 1000;

  it(`end after ${STAFF_IDLE_MS / HOUR} hours idle, ${STAFF_ABSOLUTE_MS / (24 * HOUR)} days after signing in however busy`, async () => {
    const staff = await createStaff("support");
    const idle = await staffCookie(staff);
    await setSessionTimes(idle, 20 * HOUR, STAFF_IDLE_MS - HOUR);
    expect((await visitorOf(idle))?.staff?.id).toBe(staff.id);
    await setSessionTimes(idle, 20 * HOUR, STAFF_IDLE_MS + HOUR);
    expect(await visitorOf(idle)).toBeNull();

    const busy = await staffCookie(staff);
    await setSessionTimes(busy, STAFF_ABSOLUTE_MS - HOUR, 2 * HOUR);
    expect((await visitorOf(busy))?.staff?.id).toBe(staff.id);
    await setSessionTimes(busy, STAFF_ABSOLUTE_MS + HOUR, 2 * HOUR);
    expect(await visitorOf(busy)).toBeNull();
  });

  it("the account page lists its active sessions; 'Sign out everywhere' ends them all, no one else's", async () => {
    const staff = await createStaff("fulfilment");
    const other = await createStaff("fulfilment");
    const here = mergeCookies(sessionCookies(await login({ email: staff.email, password: staff.password })));
    const there = await staffCookie(staff);
    const elsewhere = await staffCookie(other);
    const page = await call(accountRoute.loader, getRequest("/admin/account", { Cookie: here }));
    const sessions = asRecord(page.body).sessions as { device: string; current: boolean }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.find((s) => s.current)?.device).toBe("Firefox on Windows");
    expect(textOf(page)).not.toContain((await sessionOf(here)).id);

    const answer = await call(accountRoute.action, formPost("/admin/account", { intent: "signout-all" }, { Cookie: here }));
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/");
    expect(await visitorOf(here)).toBeNull();
    expect(await visitorOf(there)).toBeNull();
    expect(await db.selectFrom("sessions").select("id").where("staffId", "=", staff.id).execute()).toEqual([]);
    expect((await visitorOf(elsewhere))?.staff?.id).toBe(other.id);
  });

  it("changing the password ends the account's other sessions; this one continues under a new id", async () => {
    const staff = await createStaff("support");
    const here = await staffCookie(staff);
    const there = await staffCookie(staff);
    const wrong = await call(
      accountRoute.action,
      formPost(
        "/admin/account",
        { intent: "password", currentPassword: "not-it-at-all", newPassword: "Brand-new-pass1", confirmPassword: "Brand-new-pass1" },
        { Cookie: here },
      ),
    );
    expect(wrong.status).toBe(400);
    expect((await visitorOf(there))?.staff?.id).toBe(staff.id);
    const answer = await call(
      accountRoute.action,
      formPost(
        "/admin/account",
        { intent: "password", currentPassword: staff.password, newPassword: "Brand-new-pass1", confirmPassword: "Brand-new-pass1" },
        { Cookie: here },
      ),
    );
    expect(answer.status).toBe(302);
    const next = mergeCookies(sessionCookies(answer), here);
    expect((await sessionOf(next)).id).not.toBe((await sessionOf(here)).id);
    expect((await visitorOf(next))?.staff?.id).toBe(staff.id);
    expect(await visitorOf(there)).toBeNull();
    expect((await login({ email: staff.email, password: staff.password })).status).toBe(401);
    expect((await login({ email: staff.email, password: "Brand-new-pass1" })).status).toBe(303);
  });

  it("the new password follows the customers' rules", async () => {
    const staff = await createStaff("support");
    const here = await staffCookie(staff);
    const answer = await call(
      accountRoute.action,
      formPost(
        "/admin/account",
        { intent: "password", currentPassword: staff.password, newPassword: "abc", confirmPassword: "abc" },
        { Cookie: here },
      ),
    );
    expect(answer.status).toBe(400);
    expect(asRecord(asRecord(answer.body).fieldErrors).newPassword).toBeTruthy();
    expect((await login({ email: staff.email, password: staff.password })).status).toBe(303);
  });
});
