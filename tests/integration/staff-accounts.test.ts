// Staff accounts managed by the owner (docs/product.md, Staff and roles): an invitation mailed
// through the outbox whose single-use link sets the password, an expired or used link refused
// with nothing written, a taken email refused, customers and staff apart, a password reset by
// mail that ends every session, disabling that ends the account's sessions at once (audited), the
// last active owner kept (also against two demotions racing on PostgreSQL), and every other role
// refused with 403 and nothing written.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, nowIso } from "~/lib/db.server";
import { publicOrigin } from "~/lib/mail.server";
import { verifyPassword } from "~/lib/password.server";
import { applySecurityHeaders } from "~/lib/security-headers.server";
import { INVITE_TTL_MS, inviteStaff, STAFF_RESET_TTL_MS } from "~/models/staff/accounts.server";
import { changeRole, disableStaff } from "~/models/staff/owner-changes.server";
import { BUILTIN_OWNER, findStaffByEmail, twoStepForAll, twoStepRequiredFor, findStaff } from "~/models/staff/staff.server";
import * as invitePage from "~/routes/admin_.invite";
import * as forgotPage from "~/routes/admin_.forgot-password";
import * as resetPage from "~/routes/admin_.reset-password";
import * as staffPage from "~/routes/admin.staff";
import * as customerLogin from "~/routes/login";
import { STAFF_MESSAGES } from "~/utils/staff-fields";
import type { Permission, Role } from "~/utils/staff-permissions";
import { PERMISSION_REFUSED, PERMISSIONS, ROLE_PERMISSIONS, ROLES } from "~/utils/staff-permissions";
import { requireStaff } from "~/web/staff.server";
import { mailsTo } from "../support/outbox";
import { lockHolder, queuedBehind } from "../support/pg-locks";
import { formRequest, getRequest } from "../support/requests";
import type { Answer, RouteFn } from "../support/route-calls";
import { asRecord, call, cookieJar } from "../support/route-calls";
import { newCustomer, PASSWORD as CUSTOMER_PASSWORD, uniqueEmail } from "../support/orders";
import type { TestStaff } from "../support/staff";
import { createStaff, signedInStaff, staffCookie } from "../support/staff";

let owner: TestStaff & { cookie: string };

beforeAll(async () => {
  await ready;
  owner = await signedInStaff("owner");
});

const postStaff = (fields: Record<string, string>, cookie = owner.cookie) =>
  call(staffPage.action, formRequest("/admin/staff", fields, { Cookie: cookie }));

const formError = (answer: Answer) => String(asRecord(answer.body).formError);

/** The link of the newest mail to `to` whose subject matches, on the page at `path`. */
async function mailedLink(to: string, subject: RegExp, path: string): Promise<string> {
  const mail = (await mailsTo(to)).filter((m) => subject.test(m.subject)).at(-1);
  const escaped = path.replace(/[/]/g, "\\/");
  const match = new RegExp(`(https?://\\S+${escaped}\\?token=[A-Za-z0-9_%-]+)`).exec(mail?.text ?? "");
  if (!match) throw new Error(`no ${path} link mailed to ${to}`);
  return match[1]!;
}
const inviteLink = (to: string) => mailedLink(to, /invitation/i, "/admin/invite");
const resetLink = (to: string) => mailedLink(to, /reset your/i, "/admin/reset-password");
const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

async function invite(role: Role = "support", name = "Asha Rao"): Promise<{ email: string; id: number; link: string }> {
  const email = uniqueEmail("staff-invite");
  const answer = await postStaff({ intent: "invite", name, email, role });
  expect(answer.status, JSON.stringify(answer.body)).toBe(302);
  const row = await db.selectFrom("staff").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return { email, id: row.id, link: await inviteLink(email) };
}

/**
 * A mailed link opened as a browser opens it: the answer moves the token out of the URL into the
 * page's cookie (a 303 to the page without it, no Referer), then the page is read with the cookie.
 */
async function openLink(loader: RouteFn, link: string): Promise<Answer> {
  const url = new URL(link);
  const moved = await call(loader, getRequest(`${url.pathname}${url.search}`));
  expect(moved.status).toBe(303);
  expect(moved.headers.get("Location")).toBe(url.pathname);
  expect(moved.headers.get("Referrer-Policy")).toBe("no-referrer");
  const cookie = cookieJar(moved);
  expect(moved.headers.get("Set-Cookie")).toMatch(/^staff_link_[a-z-]+=[^;]+;.*Path=\/admin\/.*HttpOnly.*SameSite=Lax/i);
  return call(loader, getRequest(url.pathname, { Cookie: cookie }));
}

const accept = (token: string, password: string) =>
  call(invitePage.action, formRequest("/admin/invite", { token, password, confirmPassword: password }));

const passwordHashOf = async (id: number) =>
  (await db.selectFrom("staff").select("passwordHash").where("id", "=", id).executeTakeFirstOrThrow()).passwordHash;

async function auditOf(id: number) {
  return db.selectFrom("auditLog").selectAll().where("entity", "=", "staff").where("entityId", "=", String(id)).orderBy("id").execute();
}

/** Is the session of `cookie` a staff member's still? */
async function signedIn(cookie: string): Promise<boolean> {
  try {
    await requireStaff(getRequest("/admin", { Cookie: cookie }), null);
    return true;
  } catch (error) {
    if (error instanceof Response) return false;
    throw error;
  }
}

describe("an invitation", () => {
  it("is mailed through the outbox with an absolute single-use link that sets the password", async () => {
    const { email, id, link } = await invite("fulfilment", "Ravi Kumar");
    expect(link.startsWith(`${publicOrigin()}/admin/invite?token=`)).toBe(true);
    const token = tokenOf(link);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the token's SHA-256 is stored; the account has no password yet.
    const tokens = await db.selectFrom("staffTokens").selectAll().where("staffId", "=", id).execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.purpose).toBe("invite");
    expect(tokens[0]!.tokenHash).not.toContain(token);
    expect(tokens[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(tokens[0]!.expiresAt) - Date.parse(tokens[0]!.createdAt)).toBe(INVITE_TTL_MS);
    expect(await passwordHashOf(id)).toBeNull();
    // The invitation is audited with its actor and the role it gives.
    const [invited] = await auditOf(id);
    expect(invited!.action).toBe("create");
    expect(invited!.staffId).toBe(owner.id);
    expect(invited!.actor).toBe(`${owner.name} (Owner)`);
    expect(JSON.parse(invited!.details!)).toEqual({ role: [null, "fulfilment"], active: [null, true] });

    // The page shows the form for the link; the token left the URL first, without a Referer.
    const page = await openLink(invitePage.loader, link);
    expect(asRecord(page.body)).toMatchObject({ token, name: "Ravi Kumar", email, dead: null });
    // A data request's answer keeps the no-referrer of a redirect that moves a token.
    const headers = new Headers({ "Referrer-Policy": "no-referrer" });
    applySecurityHeaders(headers, "nonce");
    expect(headers.get("Referrer-Policy")).toBe("no-referrer");

    // A password the customers' rules refuse is refused here too, and nothing is written.
    const short = await accept(token, "abc");
    expect(short.status).toBe(400);
    expect(asRecord(asRecord(short.body).fieldErrors).password).toBe("Password must be at least 6 characters long");
    expect(await passwordHashOf(id)).toBeNull();

    const accepted = await accept(token, "staff-secret-1");
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("Location")).toBe("/?admin-access");
    // Not signed in by it: no staff session was made.
    expect(await db.selectFrom("sessions").select("id").where("staffId", "=", id).execute()).toEqual([]);
    // A staff sign-in's check: the password verifies against the stored hash.
    const hash = await passwordHashOf(id);
    expect(await verifyPassword("staff-secret-1", hash)).toBe(true);
    expect(await verifyPassword("staff-secret-2", hash)).toBe(false);
    expect((await db.selectFrom("staffTokens").select("usedAt").where("staffId", "=", id).executeTakeFirstOrThrow()).usedAt).not.toBeNull();

    // Single use: the link now answers that it was used, and writes nothing.
    const again = await accept(token, "staff-secret-9");
    expect(again.status).toBe(400);
    expect(formError(again)).toBe(STAFF_MESSAGES.inviteUsed);
    expect(await passwordHashOf(id)).toBe(hash);
    const reopened = await openLink(invitePage.loader, link);
    expect(asRecord(reopened.body)).toMatchObject({ token: null, dead: STAFF_MESSAGES.inviteUsed });
    const list = await call(staffPage.loader, getRequest("/admin/staff", { Cookie: owner.cookie }));
    const row = (asRecord(list.body).rows as { id: number; invitation: string }[]).find((r) => r.id === id);
    expect(row?.invitation).toBe("accepted");
  });

  it("a link's cookie lives no longer than the link, for its page alone, and is Secure over HTTPS", async () => {
    const token = "A".repeat(43);
    const https = await call(
      invitePage.loader,
      new Request(`https://localhost:3000/admin/invite?token=${token}`, { headers: { Host: "localhost:3000" } }),
    );
    const invite = https.headers.get("Set-Cookie") ?? "";
    expect(invite).toMatch(/^staff_link_invite=/);
    expect(invite).toContain(`Max-Age=${INVITE_TTL_MS / 1000}`);
    expect(invite).toContain("Path=/admin/invite;");
    expect(invite).toMatch(/; Secure/);
    expect(invite).toMatch(/; HttpOnly/);
    const http = await call(resetPage.loader, getRequest(`/admin/reset-password?token=${token}`));
    const reset = http.headers.get("Set-Cookie") ?? "";
    expect(reset).toContain(`Max-Age=${STAFF_RESET_TTL_MS / 1000}`);
    expect(reset).toContain("Path=/admin/reset-password;");
    expect(reset).not.toMatch(/; Secure/);
    // A made-up token in the cookie shows the page's message for a link that does not work.
    const page = await call(invitePage.loader, getRequest("/admin/invite", { Cookie: invite.split(";")[0]! }));
    expect(asRecord(page.body)).toMatchObject({ token: null, dead: STAFF_MESSAGES.inviteUnknown });
  });

  it("expired is refused with a clear message and writes nothing", async () => {
    const { id, link } = await invite();
    const token = tokenOf(link);
    await db
      .updateTable("staffTokens")
      .set({ expiresAt: nowIso(new Date(Date.now() - 1000)) })
      .where("staffId", "=", id)
      .execute();
    const page = await openLink(invitePage.loader, link);
    expect(asRecord(page.body)).toMatchObject({ token: null, dead: STAFF_MESSAGES.inviteExpired });
    const refused = await accept(token, "staff-secret-1");
    expect(refused.status).toBe(400);
    expect(formError(refused)).toBe(STAFF_MESSAGES.inviteExpired);
    expect(await passwordHashOf(id)).toBeNull();
    expect((await db.selectFrom("staffTokens").select("usedAt").where("staffId", "=", id).executeTakeFirstOrThrow()).usedAt).toBeNull();
    const list = await call(staffPage.loader, getRequest("/admin/staff", { Cookie: owner.cookie }));
    const row = (asRecord(list.body).rows as { id: number; invitation: string }[]).find((r) => r.id === id);
    expect(row?.invitation).toBe("expired");
  });

  it("sent again replaces the link before it", async () => {
    const { email, id, link } = await invite();
    const resent = await postStaff({ intent: "resend", id: String(id) });
    expect(resent.status).toBe(302);
    const fresh = await inviteLink(email);
    expect(fresh).not.toBe(link);
    expect(formError(await accept(tokenOf(link), "staff-secret-1"))).toBe(STAFF_MESSAGES.inviteUnknown);
    expect((await accept(tokenOf(fresh), "staff-secret-1")).status).toBe(302);
    // Accepted: there is nothing to send again.
    const refused = await postStaff({ intent: "resend", id: String(id) });
    expect(refused.status).toBe(409);
    expect(formError(refused)).toBe(STAFF_MESSAGES.alreadyAccepted);
  });

  it("of an email that is already staff is refused beside the field, and mails nothing", async () => {
    const { email } = await invite();
    const before = (await mailsTo(email)).length;
    const again = await postStaff({ intent: "invite", name: "Someone Else", email: email.toUpperCase(), role: "owner" });
    expect(again.status).toBe(409);
    expect(asRecord(asRecord(again.body).fieldErrors).email).toBe(STAFF_MESSAGES.emailTaken);
    expect(await db.selectFrom("staff").select("id").where("email", "=", email).execute()).toHaveLength(1);
    expect((await mailsTo(email)).length).toBe(before);
  });

  it("of a disabled account is refused: the link stops working while the account is disabled", async () => {
    const { id, link } = await invite();
    await disableStaff(BUILTIN_OWNER, id);
    const refused = await accept(tokenOf(link), "staff-secret-1");
    expect(formError(refused)).toBe(STAFF_MESSAGES.accountDisabled);
    expect(await passwordHashOf(id)).toBeNull();
  });
});

describe("customers and staff are apart", () => {
  it("a customer's email and password open no staff account, and a staff member's do not sign in at /login", async () => {
    const customer = await newCustomer("staff-apart");
    expect(await findStaffByEmail(customer.email)).toBeNull();
    // Asking for a staff reset with a customer's email mails nothing.
    await forgot(customer.email);
    expect((await mailsTo(customer.email)).filter((m) => /back-office/i.test(m.subject))).toEqual([]);
    // The same email invited as staff is a separate account, without the customer's password.
    const made = await inviteStaff(BUILTIN_OWNER, { name: "Customer Too", email: customer.email, role: "support" }, publicOrigin());
    expect(await verifyPassword(CUSTOMER_PASSWORD, await passwordHashOf(made.id))).toBe(false);
    expect(
      (await db.selectFrom("users").select("passwordHash").where("email", "=", customer.email).executeTakeFirstOrThrow()).passwordHash,
    ).not.toBeNull();

    const staff = await createStaff("manager");
    const login = await call(customerLogin.action, formRequest("/login", { email: staff.email, password: staff.password }));
    expect(login.status).toBe(401);
    expect(login.headers.get("Location")).toBeNull();
  });
});

const forgot = (email: string) => call(forgotPage.action, formRequest("/admin/forgot-password", { email }));
const reset = (token: string, password: string) =>
  call(resetPage.action, formRequest("/admin/reset-password", { token, password, confirmPassword: password }));

describe("a staff password reset by mail", () => {
  it("answers the same for an unknown email, mails a single-use link that ends every session of the account", async () => {
    const unknown = await forgot(uniqueEmail("nobody-staff"));
    const staff = await createStaff("support");
    const known = await forgot(staff.email);
    expect(unknown.status).toBe(302);
    expect(known.status).toBe(unknown.status);
    expect(known.headers.get("Location")).toBe("/admin/forgot-password?sent=1");
    expect(unknown.headers.get("Location")).toBe(known.headers.get("Location"));

    const link = await resetLink(staff.email);
    expect(link.startsWith(`${publicOrigin()}/admin/reset-password?token=`)).toBe(true);
    const token = tokenOf(link);
    const row = await db
      .selectFrom("staffTokens")
      .selectAll()
      .where("staffId", "=", staff.id)
      .where("purpose", "=", "reset")
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expiresAt) - Date.parse(row.createdAt)).toBe(STAFF_RESET_TTL_MS);
    expect(asRecord((await openLink(resetPage.loader, link)).body).token).toBe(token);

    const phone = await staffCookie(staff);
    const laptop = await staffCookie(staff);
    expect(await signedIn(phone)).toBe(true);
    const done = await reset(token, "new-staff-secret");
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/?admin-access");
    expect(await verifyPassword("new-staff-secret", await passwordHashOf(staff.id))).toBe(true);
    expect(await db.selectFrom("sessions").select("id").where("staffId", "=", staff.id).execute()).toEqual([]);
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(laptop)).toBe(false);

    // Single use.
    const hash = await passwordHashOf(staff.id);
    const again = await reset(token, "another-secret");
    expect(again.status).toBe(400);
    expect(formError(again)).toBe(STAFF_MESSAGES.resetInvalid);
    expect(await passwordHashOf(staff.id)).toBe(hash);
  });

  it("is limited per email: the fourth request of an hour is refused", async () => {
    const staff = await createStaff("support");
    for (let i = 0; i < 3; i++) expect((await forgot(staff.email)).status).toBe(302);
    const fourth = await forgot(staff.email);
    expect(fourth.status).toBe(429);
    expect((await mailsTo(staff.email)).filter((m) => /reset your/i.test(m.subject))).toHaveLength(3);
  });

  it("an expired reset link is refused and writes nothing", async () => {
    const staff = await createStaff("support");
    await forgot(staff.email);
    const token = tokenOf(await resetLink(staff.email));
    await db
      .updateTable("staffTokens")
      .set({ expiresAt: nowIso(new Date(Date.now() - 1000)) })
      .where("staffId", "=", staff.id)
      .execute();
    const hash = await passwordHashOf(staff.id);
    expect(formError(await reset(token, "new-staff-secret"))).toBe(STAFF_MESSAGES.resetInvalid);
    expect(await passwordHashOf(staff.id)).toBe(hash);
  });
});

describe("the owner's changes", () => {
  it("disabling an account ends its sessions at once and is audited; enabling lets it sign in again", async () => {
    const staff = await signedInStaff("fulfilment");
    expect(await signedIn(staff.cookie)).toBe(true);
    const answer = await postStaff({ intent: "disable", id: String(staff.id) });
    expect(answer.status).toBe(302);
    expect(await signedIn(staff.cookie)).toBe(false);
    expect(await db.selectFrom("sessions").select("id").where("staffId", "=", staff.id).execute()).toEqual([]);
    const row = await findStaff(staff.id);
    expect(row?.active).toBe(false);
    expect(row?.disabledAt).not.toBeNull();
    const audit = (await auditOf(staff.id)).at(-1)!;
    expect(audit.staffId).toBe(owner.id);
    expect(audit.actor).toBe(`${owner.name} (Owner)`);
    expect(JSON.parse(audit.details!)).toEqual({ active: [true, false] });

    expect((await postStaff({ intent: "enable", id: String(staff.id) })).status).toBe(302);
    expect((await findStaff(staff.id))?.active).toBe(true);
    expect(JSON.parse((await auditOf(staff.id)).at(-1)!.details!)).toEqual({ active: [false, true] });
  });

  it("a role change and two-step requirements are audited with before and after", async () => {
    const staff = await signedInStaff("support");
    expect(await signedIn(staff.cookie)).toBe(true);
    expect((await postStaff({ intent: "role", id: String(staff.id), role: "manager" })).status).toBe(302);
    expect((await findStaff(staff.id))?.role).toBe("manager");
    // A privilege change: the account signs in again, into a fresh session.
    expect(await signedIn(staff.cookie)).toBe(false);
    expect(await db.selectFrom("sessions").select("id").where("staffId", "=", staff.id).execute()).toEqual([]);
    expect(JSON.parse((await auditOf(staff.id)).at(-1)!.details!)).toEqual({ role: ["support", "manager"] });

    const other = await createStaff("fulfilment");
    expect(await twoStepRequiredFor((await findStaff(other.id))!)).toBe(false);
    expect((await postStaff({ intent: "two-step", id: String(other.id), on: "on" })).status).toBe(302);
    expect(await twoStepRequiredFor((await findStaff(other.id))!)).toBe(true);
    expect(JSON.parse((await auditOf(other.id)).at(-1)!.details!)).toEqual({ twoStepRequired: [false, true] });
    expect((await postStaff({ intent: "two-step", id: String(other.id), on: "off" })).status).toBe(302);

    expect((await postStaff({ intent: "two-step-all", on: "on" })).status).toBe(302);
    expect(await twoStepForAll()).toBe(true);
    expect(await twoStepRequiredFor((await findStaff(other.id))!)).toBe(true);
    const shopWide = await db
      .selectFrom("auditLog")
      .selectAll()
      .where("entity", "=", "staff")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(shopWide.details!)).toEqual({ twoStepForAll: [false, true] });
    expect((await postStaff({ intent: "two-step-all", on: "off" })).status).toBe(302);
    expect(await twoStepForAll()).toBe(false);
  });

  it("resetting a lost two-step: its secret, recovery codes and sessions go, audited; never one's own", async () => {
    const staff = await signedInStaff("manager");
    await db
      .insertInto("staffRecoveryCodes")
      .values({ staffId: staff.id, codeHash: "x".repeat(64), usedAt: null })
      .execute();
    expect((await findStaff(staff.id))?.twoStepEnabled).toBe(true);
    expect((await postStaff({ intent: "reset-two-step", id: String(staff.id) })).status).toBe(302);
    expect((await findStaff(staff.id))?.twoStepEnabled).toBe(false);
    expect(await db.selectFrom("staffRecoveryCodes").select("id").where("staffId", "=", staff.id).execute()).toEqual([]);
    expect(await signedIn(staff.cookie)).toBe(false);
    const audit = (await auditOf(staff.id)).at(-1)!;
    expect(audit.staffId).toBe(owner.id);
    expect(JSON.parse(audit.details!)).toEqual({ twoStepEnabled: [true, false] });
    // An owner cannot reset their own from here: refused, nothing written.
    const own = await postStaff({ intent: "reset-two-step", id: String(owner.id) });
    expect(own.status).toBe(403);
    expect(formError(own)).toBe(STAFF_MESSAGES.resetOwnTwoStep);
    expect((await findStaff(owner.id))?.twoStepEnabled).toBe(true);
  });

  it("a bad role, id or switch is refused with a clear message", async () => {
    const staff = await createStaff("support");
    const badRole = await postStaff({ intent: "role", id: String(staff.id), role: "admin" });
    expect(badRole.status).toBe(400);
    expect(formError(badRole)).toContain("Choose a role");
    const missing = await postStaff({ intent: "disable", id: "999999" });
    expect(missing.status).toBe(404);
    expect(formError(missing)).toBe(STAFF_MESSAGES.notFound);
    const unknown = await postStaff({ intent: "disable", id: String(staff.id), password: "x" });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain("Unknown field: password");
    expect((await findStaff(staff.id))?.active).toBe(true);
  });
});

describe("the last active owner", () => {
  /** Every active owner but those given becomes a manager (setup, straight in the table). */
  async function onlyOwners(...ids: number[]) {
    await db.updateTable("staff").set({ role: "manager" }).where("role", "=", "owner").where("id", "not in", ids).execute();
  }

  it("can be neither disabled nor demoted, through the page or the model; nothing is written", async () => {
    const last = await signedInStaff("owner");
    await onlyOwners(last.id);
    const audits = (await auditOf(last.id)).length;
    const refusals: Record<string, string>[] = [
      { intent: "disable", id: String(last.id) },
      { intent: "role", id: String(last.id), role: "manager" },
    ];
    for (const fields of refusals) {
      const refused = await postStaff(fields, last.cookie);
      expect(refused.status).toBe(409);
      expect(formError(refused)).toBe(STAFF_MESSAGES.lastOwner);
    }
    await expect(disableStaff(BUILTIN_OWNER, last.id)).rejects.toMatchObject({ status: 409, message: STAFF_MESSAGES.lastOwner });
    await expect(changeRole(BUILTIN_OWNER, last.id, "support")).rejects.toMatchObject({ status: 409 });
    const row = await findStaff(last.id);
    expect(row).toMatchObject({ role: "owner", active: true });
    expect(await signedIn(last.cookie)).toBe(true);
    expect((await auditOf(last.id)).length).toBe(audits);

    // With a second owner, either may go.
    const second = await createStaff("owner");
    expect((await postStaff({ intent: "role", id: String(last.id), role: "manager" }, last.cookie)).status).toBe(302);
    await expect(disableStaff(BUILTIN_OWNER, second.id)).rejects.toMatchObject({ status: 409 });
    owner = { ...second, cookie: await staffCookie(second) };
  });

  it("two demotions of the last two owners at once: one is refused", async () => {
    const a = await createStaff("owner");
    const b = await createStaff("owner");
    await onlyOwners(a.id, b.id);
    const steps = [() => changeRole(BUILTIN_OWNER, a.id, "manager"), () => changeRole(BUILTIN_OWNER, b.id, "manager")];
    const holder = await lockHolder();
    // PostgreSQL: both queue behind a lock on the two owners' rows, then run as the lock lets go.
    // Without the owners' rows locked, each would count two owners and both would pass.
    const results = holder
      ? await queuedBehind(holder, { sql: "select id from staff where id in ($1, $2) for update", params: [a.id, b.id] }, steps).finally(
          () => holder.end(),
        )
      : await Promise.allSettled(steps.map((s) => s()));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 409, message: STAFF_MESSAGES.lastOwner });
    const owners = await db.selectFrom("staff").select("id").where("role", "=", "owner").where("active", "=", 1).execute();
    expect(owners).toHaveLength(1);
    owner = { ...(owners[0]!.id === a.id ? a : b), cookie: await staffCookie(owners[0]!.id === a.id ? a : b) };
  });
});

describe("other roles", () => {
  it("get 403 for the page and every form, and nothing is written", async () => {
    const target = await createStaff("support");
    const snapshot = async () => ({
      staff: await db.selectFrom("staff").selectAll().orderBy("id").execute(),
      tokens: await db.selectFrom("staffTokens").selectAll().orderBy("id").execute(),
      audit: await db.selectFrom("auditLog").select("id").orderBy("id").execute(),
      mail: await db.selectFrom("mailOutbox").select("id").orderBy("id").execute(),
      settings: await db.selectFrom("settings").selectAll().orderBy("key").execute(),
    });
    const before = await snapshot();
    const id = String(target.id);
    const forms: Record<string, string>[] = [
      { intent: "invite", name: "Sneaky", email: uniqueEmail("sneaky"), role: "owner" },
      { intent: "role", id, role: "owner" },
      { intent: "disable", id },
      { intent: "enable", id },
      { intent: "two-step", id, on: "on" },
      { intent: "resend", id },
      { intent: "two-step-all", on: "on" },
    ];
    for (const role of ["manager", "fulfilment", "support"] as const) {
      const who = await signedInStaff(role);
      const page = await call(staffPage.loader, getRequest("/admin/staff", { Cookie: who.cookie }));
      expect(page.status).toBe(403);
      expect(asRecord(page.body).message).toBe(PERMISSION_REFUSED);
      for (const fields of forms) {
        const answer = await postStaff(fields, who.cookie);
        expect(answer.status, `${role} ${fields.intent}`).toBe(403);
        expect(asRecord(answer.body).message).toBe(PERMISSION_REFUSED);
      }
    }
    const after = await snapshot();
    // The rows there before are untouched (the three sign-ins' own accounts were added by the test).
    expect(after.staff.filter((s) => before.staff.some((b) => b.id === s.id))).toEqual(before.staff);
    expect(after.tokens).toEqual(before.tokens);
    expect(after.audit).toEqual(before.audit);
    expect(after.mail).toEqual(before.mail);
    expect(after.settings).toEqual(before.settings);
    expect((await findStaff(target.id))?.role).toBe("support");
  });

  it("nobody signed in: the page goes to /, a post answers 403", async () => {
    const page = await call(staffPage.loader, getRequest("/admin/staff"));
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/");
    const post = await call(staffPage.action, formRequest("/admin/staff", { intent: "two-step-all", on: "on" }));
    expect(post.status).toBe(403);
    expect(await twoStepForAll()).toBe(false);
  });
});

describe("the docs' permission tables", () => {
  const ROOT = path.resolve(__dirname, "../..");
  /** The rows of the markdown table whose header starts with `first`. */
  function table(file: string, first: string): string[][] {
    const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
    const start = lines.findIndex((l) => new RegExp(`^\\|\\s*${first}\\s*\\|`).test(l));
    expect(start, `${file}: a table starting with ${first}`).toBeGreaterThan(-1);
    const rows: string[][] = [];
    for (let i = start + 2; lines[i]?.startsWith("|"); i++)
      rows.push(
        lines[i]!.split("|")
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    return rows;
  }

  it("docs/product.md lists each permission with the roles that have it, as ROLE_PERMISSIONS says", () => {
    const rows = table("docs/product.md", "permission");
    expect(rows.map((r) => r[0]!.replace(/`/g, ""))).toEqual(Object.keys(PERMISSIONS));
    for (const row of rows) {
      const permission = row[0]!.replace(/`/g, "") as Permission;
      ROLES.forEach((role, i) =>
        expect(row[2 + i] === "yes", `${permission} for ${role}`).toBe(ROLE_PERMISSIONS[role].includes(permission)),
      );
    }
  });

  it("docs/api.md lists each role's permissions, as ROLE_PERMISSIONS says", () => {
    const rows = table("docs/api.md", "role");
    expect(rows.map((r) => r[0])).toEqual([...ROLES]);
    for (const [role, permissions] of rows as [Role, string][]) {
      expect([...permissions.matchAll(/`([a-z.]+)`/g)].map((m) => m[1]).sort(), role).toEqual([...ROLE_PERMISSIONS[role]].sort());
    }
  });
});
