// A cookie that names a session row the server no longer has (idle expiry, a password change on
// another device, a deleted user) starts a fresh session with a new cookie; a session write that
// changes no row fails loudly; the cookie never outlives what the server keeps.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { purgeExpired } from "~/lib/housekeeping.server";
import { LIMITS } from "~/lib/rate-limit.server";
import { FIRST_VISIT_MS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, commitSession, getSession, sessionCookie } from "~/lib/session.server";
import { addToCart as addToCartModel, clearCart } from "~/models/cart.server";
import { saveUserDetails } from "~/models/users/profile.server";
import { action as cartAction, loader as cartLoader } from "~/routes/cart";
import { action as signupAction } from "~/routes/signup";
import { action as verifyAction } from "~/routes/verify-otp";
import { action as wishlistAction, loader as wishlistLoader } from "~/routes/wishlist";
import { latestCode } from "../support/outbox";
import { cookiesFrom, formRequest, getRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import { newCustomer, uniqueEmail } from "../support/orders";

async function itemId(slug: string) {
  const row = await db.selectFrom("items").select("id").where("slug", "=", slug).executeTakeFirstOrThrow();
  return row.id;
}

async function sessionIdOf(cookie: string): Promise<string> {
  return (await sessionCookie.parse(cookie)) as string;
}

function maxAgeOf(setCookie: string): number | null {
  const match = /;\s*Max-Age=(\d+)/i.exec(setCookie);
  return match ? Number(match[1]) : null;
}

async function addToCart(slug: string, cookie = "") {
  const answer = await call(
    cartAction,
    formRequest("/cart", { intent: "add", itemId: String(await itemId(slug)), redirectTo: "/cart" }, cookie ? { Cookie: cookie } : {}),
  );
  return { answer, cookie: cookiesFrom(answer.raw as Response, cookie) };
}

async function cartLines(cookie: string): Promise<number> {
  const page = await call(cartLoader, getRequest("/cart", { Cookie: cookie }));
  return (asRecord(page.body).items as unknown[]).length;
}

beforeAll(async () => {
  await ready;
});

describe("a cookie whose session row is gone", () => {
  it("a cart add starts a fresh session with a new cookie, and the cart holds the item", async () => {
    const first = await addToCart("sheesham-wood-3-seater-sofa");
    const staleId = await sessionIdOf(first.cookie);
    await db.deleteFrom("sessions").where("id", "=", staleId).execute();
    const cartsBefore = (await db.selectFrom("carts").select(db.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n;

    const again = await addToCart("teak-wood-diwan-with-bolsters", first.cookie);
    expect(again.answer.status).toBe(302);
    const freshId = await sessionIdOf(again.cookie);
    expect(freshId).toBeTruthy();
    expect(freshId).not.toBe(staleId);
    expect(await db.selectFrom("sessions").select("id").where("id", "=", freshId).executeTakeFirst()).toBeDefined();
    expect(await cartLines(again.cookie)).toBe(1);
    // One new cart, and it is the one the new session names: no orphan row.
    const cartsAfter = (await db.selectFrom("carts").select(db.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n;
    expect(Number(cartsAfter)).toBe(Number(cartsBefore) + 1);
    const session = await db.selectFrom("sessions").select("data").where("id", "=", freshId).executeTakeFirstOrThrow();
    const cartId = (JSON.parse(session.data) as { cartId?: string }).cartId;
    expect(await db.selectFrom("cartLines").select("cartId").where("cartId", "=", cartId!).executeTakeFirst()).toBeDefined();
  });

  it("a wishlist save does the same", async () => {
    const id = await itemId("sheesham-wood-3-seater-sofa");
    const first = await call(wishlistAction, formRequest("/wishlist", { intent: "add", itemId: String(id), redirectTo: "/wishlist" }));
    const cookie = cookiesFrom(first.raw as Response);
    await db
      .deleteFrom("sessions")
      .where("id", "=", await sessionIdOf(cookie))
      .execute();
    const other = await itemId("teak-wood-diwan-with-bolsters");
    const again = await call(
      wishlistAction,
      formRequest("/wishlist", { intent: "add", itemId: String(other), redirectTo: "/wishlist" }, { Cookie: cookie }),
    );
    const fresh = cookiesFrom(again.raw as Response, cookie);
    expect(await sessionIdOf(fresh)).not.toBe(await sessionIdOf(cookie));
    const page = await call(wishlistLoader, getRequest("/wishlist", { Cookie: fresh }));
    expect((asRecord(page.body).items as { id: number }[]).map((i) => i.id)).toEqual([other]);
  });

  it("a browser sign-up made with a stale cookie can be verified with its code", async () => {
    const { cookie } = await addToCart("sheesham-wood-3-seater-sofa");
    await db
      .deleteFrom("sessions")
      .where("id", "=", await sessionIdOf(cookie))
      .execute();
    const email = uniqueEmail("stale-signup");
    const signup = await call(
      signupAction,
      formRequest(
        "/signup",
        { name: "Asha Rao", email, mobile: "", password: "secret12", confirmPassword: "secret12", terms: "on" },
        { Cookie: cookie, "X-Forwarded-For": "10.77.0.1" },
      ),
    );
    expect(signup.status).toBe(302);
    const fresh = cookiesFrom(signup.raw as Response, cookie);
    const otp = (await latestCode(email)).split("");
    const body = new URLSearchParams({ intent: "verify", email });
    for (const digit of otp) body.append("otp", digit);
    const verified = await call(
      verifyAction,
      new Request("http://localhost:3000/verify-otp", {
        method: "POST",
        headers: {
          Host: "localhost:3000",
          Origin: "http://localhost:3000",
          "Content-Type": "application/x-www-form-urlencoded",
          Cookie: fresh,
        },
        body: body.toString(),
      }),
    );
    expect(verified.status).toBe(302);
    expect(verified.headers.get("Location")).toBe("/profile");
  });
});

describe("session writes", () => {
  it("a commit whose row vanished after it was read fails loudly instead of writing nothing", async () => {
    const { cookie } = await addToCart("sheesham-wood-3-seater-sofa");
    const request = getRequest("/cart", { Cookie: cookie });
    const session = await getSession(request);
    await db.deleteFrom("sessions").where("id", "=", session.id).execute();
    session.set("remember", true);
    await expect(commitSession(session, request)).rejects.toMatchObject({ status: 409 });
  });

  it("the cookie lives no longer than the server keeps an unused session", async () => {
    const { answer } = await addToCart("sheesham-wood-3-seater-sofa");
    const setCookie = (answer.raw as Response).headers.getSetCookie().find((c) => c.startsWith("__session="))!;
    const maxAge = maxAgeOf(setCookie);
    expect(maxAge).not.toBeNull();
    expect(maxAge! * 1000).toBeLessThanOrEqual(SESSION_IDLE_MS);
    expect(SESSION_IDLE_MS).toBeLessThanOrEqual(SESSION_ABSOLUTE_MS);
  });

  it("near its absolute end, the cookie ends when the row does", async () => {
    const { cookie } = await addToCart("sheesham-wood-3-seater-sofa");
    const id = await sessionIdOf(cookie);
    const end = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
    await db.updateTable("sessions").set({ expiresAt: end.toISOString() }).where("id", "=", id).execute();
    const { answer } = await addToCart("teak-wood-diwan-with-bolsters", cookie);
    const setCookie = (answer.raw as Response).headers.getSetCookie().find((c) => c.startsWith("__session="));
    // The add changed the session only if it is a new cart; commit explicitly to read the cookie.
    const request = getRequest("/cart", { Cookie: cookie });
    const header = setCookie ?? (await commitSession(await getSession(request), request));
    const maxAge = maxAgeOf(header)!;
    expect(maxAge).toBeLessThanOrEqual(2 * 24 * 60 * 60);
    expect(maxAge).toBeGreaterThan(2 * 24 * 60 * 60 - 60);
  });

  it("a visit after an hour refreshes the cookie, so an active shopper keeps the cart past the idle window", async () => {
    const { cookie } = await addToCart("sheesham-wood-3-seater-sofa");
    const id = await sessionIdOf(cookie);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
    await db.updateTable("sessions").set({ lastSeenAt: twoHoursAgo }).where("id", "=", id).execute();
    const { refreshedSessionCookie } = await import("~/lib/session.server");
    const request = getRequest("/", { Cookie: cookie });
    await getSession(request);
    const header = await refreshedSessionCookie(request, new Headers());
    expect(header).toMatch(/^__session=/);
    expect(maxAgeOf(header!)! * 1000).toBeGreaterThan(SESSION_IDLE_MS - 60_000);
    // Within the hour nothing is refreshed.
    const soon = getRequest("/", { Cookie: cookie });
    await getSession(soon);
    expect(await refreshedSessionCookie(soon, new Headers())).toBeNull();
  });
});

describe("writes whose row vanished underneath", () => {
  it("a cart line added to a guest cart that expired meanwhile is refused (404), not written nowhere", async () => {
    const now = new Date().toISOString();
    await db.insertInto("carts").values({ id: "cart-gone", userId: null, createdAt: now, updatedAt: now }).execute();
    await db.deleteFrom("carts").where("id", "=", "cart-gone").execute();
    await expect(addToCartModel("cart-gone", await itemId("sheesham-wood-3-seater-sofa"), 1)).rejects.toMatchObject({ status: 404 });
    await expect(clearCart("cart-gone")).rejects.toMatchObject({ status: 404 });
  });

  it("a profile saved for an account deleted meanwhile fails instead of answering saved", async () => {
    const customer = await newCustomer("vanished-profile");
    await db.deleteFrom("users").where("id", "=", customer.user.id).execute();
    const missing = new AppError(401, "Please log in to continue");
    await expect(
      saveUserDetails(customer.user.id, { name: "Someone", email: customer.email, mobile: null }, { missing }),
    ).rejects.toMatchObject({ status: 401 });
  });
});

describe("cookie-less writes (a script that keeps no cookies)", () => {
  it("each add makes a first-visit session that lives a day, and a full one once its cookie comes back", async () => {
    const { answer, cookie } = await addToCart("sheesham-wood-3-seater-sofa");
    expect(answer.status).toBe(302);
    const row = await db
      .selectFrom("sessions")
      .selectAll()
      .where("id", "=", await sessionIdOf(cookie))
      .executeTakeFirstOrThrow();
    const lifetime = Date.parse(row.expiresAt) - Date.parse(row.createdAt);
    expect(lifetime).toBeLessThanOrEqual(FIRST_VISIT_MS);
    // The browser comes back with the cookie: the session is a full one now.
    await call(cartLoader, getRequest("/cart", { Cookie: cookie }));
    const after = await db.selectFrom("sessions").select(["expiresAt", "createdAt"]).where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(Date.parse(after.expiresAt) - Date.parse(after.createdAt)).toBe(SESSION_ABSOLUTE_MS);
  });

  it("housekeeping removes a day-old first-visit session with the guest cart and wishlist it named", async () => {
    const { cookie } = await addToCart("sheesham-wood-3-seater-sofa");
    const id = await sessionIdOf(cookie);
    const data = JSON.parse((await db.selectFrom("sessions").select("data").where("id", "=", id).executeTakeFirstOrThrow()).data) as {
      cartId: string;
    };
    await purgeExpired(db, new Date(Date.now() + FIRST_VISIT_MS + 60_000));
    expect(await db.selectFrom("sessions").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("carts").select("id").where("id", "=", data.cartId).executeTakeFirst()).toBeUndefined();
  });

  it("one address may make only so many guest carts (429 after that), and the refused add writes nothing", async () => {
    const saved = LIMITS.guestRows.max;
    LIMITS.guestRows.max = 3;
    const { env } = await import("~/lib/env.server");
    const trusted = env.TRUST_PROXY;
    env.TRUST_PROXY = true;
    try {
      const id = String(await itemId("sheesham-wood-3-seater-sofa"));
      const post = () =>
        call(cartAction, formRequest("/cart", { intent: "add", itemId: id, redirectTo: "/cart" }, { "X-Forwarded-For": "203.0.113.201" }));
      for (let i = 0; i < 3; i++) expect((await post()).status).toBe(302);
      const count = async () => Number((await db.selectFrom("carts").select(db.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
      const before = await count();
      const refused = await post();
      expect(refused.status).toBe(429);
      expect(await count()).toBe(before);
    } finally {
      LIMITS.guestRows.max = saved;
      env.TRUST_PROXY = trusted;
    }
  });
});

describe("two requests of one browser at once", () => {
  it("each keeps the key it set: a first cart add and a first wishlist save never undo each other", async () => {
    const { cookie } = await addToCart("sheesham-wood-3-seater-sofa");
    const [a, b] = [getRequest("/cart", { Cookie: cookie }), getRequest("/wishlist", { Cookie: cookie })];
    const [sessionA, sessionB] = await Promise.all([getSession(a), getSession(b)]);
    sessionA.set("remember", true);
    sessionB.set("wishlistId", "wishlist-of-b");
    await Promise.all([commitSession(sessionA, a), commitSession(sessionB, b)]);
    const row = await db
      .selectFrom("sessions")
      .select("data")
      .where("id", "=", await sessionIdOf(cookie))
      .executeTakeFirstOrThrow();
    const data = JSON.parse(row.data) as Record<string, unknown>;
    expect(data).toMatchObject({ remember: true, wishlistId: "wishlist-of-b" });
    expect(data.cartId).toBeTruthy();
    // A key one request removed goes, the other's stays.
    const c = getRequest("/", { Cookie: cookie });
    const sessionC = await getSession(c);
    sessionC.unset("remember");
    await commitSession(sessionC, c);
    const after = JSON.parse(
      (await db.selectFrom("sessions").select("data").where("id", "=", sessionC.id).executeTakeFirstOrThrow()).data,
    ) as Record<string, unknown>;
    expect(after.remember).toBeUndefined();
    expect(after.wishlistId).toBe("wishlist-of-b");
  });
});
