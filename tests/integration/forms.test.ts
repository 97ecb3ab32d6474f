import { beforeAll, describe, expect, it } from "vitest";
import { seedProducts } from "../../db/seed-data";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import { getCart } from "~/models/cart.server";
import { currentCartId } from "~/web/visitor.server";
import { action as homeAction } from "~/routes/_index";
import { action as cartAction } from "~/routes/cart";
import { action as contactAction } from "~/routes/contact";
import { formRequest, getRequest } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, cookieJar, setCookies } from "../support/route-calls";

const inStock = seedProducts.find((p) => p.stock >= 5)!;
const outOfStock = seedProducts.find((p) => p.stock === 0)!;
let inStockId = 0;
let outOfStockId = 0;

beforeAll(async () => {
  await ready;
  inStockId = (await db.selectFrom("items").select("id").where("slug", "=", inStock.slug).executeTakeFirstOrThrow()).id;
  outOfStockId = (await db.selectFrom("items").select("id").where("slug", "=", outOfStock.slug).executeTakeFirstOrThrow()).id;
});

function expectRedirect(answer: Answer, location: string) {
  expect([302, 303]).toContain(answer.status);
  expect(answer.headers.get("Location")).toBe(location);
}

function expectToastCookie(answer: Answer) {
  const toast = setCookies(answer).find((c) => c.startsWith("__toast="));
  expect(toast).toBeDefined();
  expect(toast).toMatch(/HttpOnly/i);
  expect(toast).toMatch(/SameSite=Lax/i);
}

const cartPost = (fields: Record<string, string>, cookie?: string) =>
  call(cartAction, formRequest("/cart", fields, cookie ? { Cookie: cookie } : {}));

describe("cart page action", () => {
  let cookie = "";

  it("intent add with redirectTo redirects there with a toast and the session cookie", async () => {
    const target = `/product/${inStock.slug}`;
    const answer = await cartPost({ intent: "add", itemId: String(inStockId), quantity: "2", redirectTo: target });
    expectRedirect(answer, target);
    expectToastCookie(answer);
    expect(setCookies(answer).some((c) => c.startsWith("__session="))).toBe(true);
    cookie = cookieJar(answer);
    const cartId = await currentCartId(getRequest("/cart", { Cookie: cookie }));
    expect(cartId).not.toBeNull();
    expect((await getCart(cartId)).count).toBe(2);
  });

  it("intent add without redirectTo answers 200 data with a toast cookie", async () => {
    const answer = await cartPost({ intent: "add", itemId: String(inStockId) }, cookie);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true });
    expectToastCookie(answer);
    cookie = cookieJar(answer, cookie);
    expect((await getCart(await currentCartId(getRequest("/cart", { Cookie: cookie })))).count).toBe(3);
  });

  it("a redirectTo to another site is not followed: it falls back to /cart", async () => {
    for (const evil of ["//evil.com", "https://evil.com/", "/\\evil.com", "javascript:alert(1)"]) {
      const answer = await cartPost({ intent: "add", itemId: String(inStockId), redirectTo: evil }, cookie);
      expectRedirect(answer, "/cart");
    }
  });

  it("a bad or missing intent answers 400 with a message", async () => {
    for (const fields of [{ intent: "explode" }, {}] as Record<string, string>[]) {
      const answer = await cartPost(fields, cookie);
      expect(answer.status).toBe(400);
      const body = asRecord(answer.body);
      expect(body.ok).toBe(false);
      expect(body.formError).toBe("Unknown action");
    }
  });

  it("bad add input → 400 with the field error; out of stock → 409", async () => {
    const bad = await cartPost({ intent: "add", itemId: String(inStockId), quantity: "0" }, cookie);
    expect(bad.status).toBe(400);
    expect(asRecord(asRecord(bad.body).fieldErrors).quantity).toBe("Quantity must be a whole number from 1 to 99");
    const out = await cartPost({ intent: "add", itemId: String(outOfStockId), quantity: "1", redirectTo: "/cart" }, cookie);
    expect(out.status).toBe(409);
    expect(String(asRecord(out.body).formError)).toMatch(/out of stock/i);
  });

  it("update, remove and clear work on the session's cart", async () => {
    const cartId = await currentCartId(getRequest("/cart", { Cookie: cookie }));
    const [line] = (await getCart(cartId)).items;
    expect((await cartPost({ intent: "update", id: String(line.id), quantity: "4" }, cookie)).status).toBe(200);
    expect((await getCart(cartId)).count).toBe(4);
    expect((await cartPost({ intent: "update", id: String(line.id), quantity: "100" }, cookie)).status).toBe(400);
    // Another visitor cannot touch this line.
    expect((await cartPost({ intent: "remove", id: String(line.id) })).status).toBe(404);
    expect((await getCart(cartId)).count).toBe(4);
    expect((await cartPost({ intent: "remove", id: String(line.id) }, cookie)).status).toBe(200);
    expect((await getCart(cartId)).count).toBe(0);
    await cartPost({ intent: "add", itemId: String(inStockId) }, cookie);
    const cleared = await cartPost({ intent: "clear", redirectTo: "/cart" }, cookie);
    expectRedirect(cleared, "/cart");
    expect((await getCart(cartId)).items).toEqual([]);
  });
});

describe("home page newsletter action", () => {
  it("subscribes and redirects with a toast", async () => {
    const answer = await call(homeAction, formRequest("/?index", { intent: "newsletter", email: " Home.Reader@Example.com " }));
    expect([302, 303]).toContain(answer.status);
    expect(answer.headers.get("Location")).toMatch(/^\/(#newsletter|\?|$)/);
    expectToastCookie(answer);
    const row = await db
      .selectFrom("newsletterSubscribers")
      .select("email")
      .where("email", "=", "home.reader@example.com")
      .executeTakeFirst();
    expect(row).toBeDefined();
  });

  it("a bad email answers 400 with fieldErrors.email and the value echoed", async () => {
    const before = toCount(
      (
        await db
          .selectFrom("newsletterSubscribers")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const answer = await call(homeAction, formRequest("/?index", { intent: "newsletter", email: "not-an-email" }));
    expect(answer.status).toBe(400);
    const body = asRecord(answer.body);
    expect(asRecord(body.fieldErrors).email).toBe("Please enter a valid email address");
    expect(asRecord(body.values).email).toBe("not-an-email");
    const after = toCount(
      (
        await db
          .selectFrom("newsletterSubscribers")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after).toBe(before);
  });
});

describe("contact page action", () => {
  it("missing fields answer 400 with an error per field and the values echoed", async () => {
    const answer = await call(
      contactAction,
      formRequest("/contact", { name: "  ", email: "priya@example", phone: "", subject: "", message: "Hello" }),
    );
    expect(answer.status).toBe(400);
    const body = asRecord(answer.body);
    expect(body.fieldErrors).toEqual({
      name: "Name is required",
      email: "Please enter a valid email address",
      subject: "Please choose a subject",
    });
    expect(body.values).toMatchObject({ name: "  ", email: "priya@example", subject: "", message: "Hello" });

    const empty = await call(contactAction, formRequest("/contact", {}));
    expect(empty.status).toBe(400);
    expect(asRecord(empty.body).fieldErrors).toEqual({
      name: "Name is required",
      email: "Email is required",
      subject: "Please choose a subject",
      message: "Message is required",
    });
  });

  it("a valid message is stored and redirects to /contact?sent=1", async () => {
    const answer = await call(
      contactAction,
      formRequest("/contact", { name: "Arjun", email: "arjun@example.com", phone: "", subject: "Feedback", message: "Lovely chairs." }),
    );
    expectRedirect(answer, "/contact?sent=1");
    expectToastCookie(answer);
    const row = await db.selectFrom("contactMessages").selectAll().where("email", "=", "arjun@example.com").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "Arjun", phone: null, subject: "Feedback", message: "Lovely chairs." });
  });
});
