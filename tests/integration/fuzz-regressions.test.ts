// Defects the fuzz test (fuzz.test.ts) found, each pinned by the smallest request that showed it.
import { beforeAll, describe, expect, it } from "vitest";
import { seedProducts } from "../../db/seed-data";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { signWebhook } from "~/lib/payments.server";
import * as root from "~/root";
import * as adminCategories from "~/routes/admin.categories";
import * as adminOrders from "~/routes/admin.orders";
import * as adminProducts from "~/routes/admin.products";
import * as adminUsers from "~/routes/admin.users";
import { grantAdmin } from "~/web/sign-in.server";
import * as cartApiGet from "~/routes/api.cart.get";
import * as cartPage from "~/routes/cart";
import * as productPage from "~/routes/product.$slug";
import * as webhook from "~/routes/rzp.webhook";
import * as wishlistPage from "~/routes/wishlist";
import { formRequest, getRequest, mergeCookies } from "../support/requests";
import type { RouteFn } from "../support/route-calls";
import { call, expectApiError } from "../support/route-calls";

const product = seedProducts[0]!;
/** Token-shaped, but no token the shop issued. */
const GARBAGE_TOKEN = { Authorization: `Bearer slt_${"A".repeat(43)}` };

beforeAll(async () => {
  await ready;
});

describe("a page read with a bearer token that is no token answers 401, not 500", () => {
  // Before: ownerOf threw an AppError (401), which API routes turn into JSON but a page's loader
  // lets through to Remix: a thrown Error, so a 500 page (root's cart badge is read on every page).
  it.each([
    ["root (every page)", root.loader as RouteFn, "/", {}],
    ["the product page", productPage.loader as RouteFn, `/product/${product.slug}`, { slug: product.slug }],
    ["the wishlist page", wishlistPage.loader as RouteFn, "/wishlist", {}],
    ["the cart page", cartPage.loader as RouteFn, "/cart", {}],
  ])("%s", async (_name, loader, path, params) => {
    const answer = await call(loader, getRequest(path, GARBAGE_TOKEN), params as Record<string, string>);
    expectApiError(answer, 401);
  });

  it("a cart form posted with it: 401, nothing added", async () => {
    const itemId = (await db.selectFrom("items").select("id").where("slug", "=", product.slug).executeTakeFirstOrThrow()).id;
    const before = await db
      .selectFrom("cartLines")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const answer = await call(cartPage.action as RouteFn, formRequest("/cart", { intent: "add", itemId: String(itemId) }, GARBAGE_TOKEN));
    expectApiError(answer, 401);
    const after = await db
      .selectFrom("cartLines")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it("the cart API still answers its JSON 401", async () => {
    const answer = await call(cartApiGet.loader as RouteFn, getRequest("/api/cart/get", GARBAGE_TOKEN));
    expect(expectApiError(answer, 401).message).toBe("Please log in to continue");
  });
});

describe("a signed webhook whose JSON is not an object answers 400, not 500", () => {
  // Before: `null` parsed, then `event.event` threw a TypeError (500); an array or a number was
  // taken for an event of another kind.
  it.each(["null", "[]", "42", '"payment.captured"'])("%s", async (raw) => {
    const request = new Request("http://localhost:3000/rzp/webhook", {
      method: "POST",
      headers: { Host: "localhost:3000", "Content-Type": "application/json", "X-Razorpay-Signature": signWebhook(raw) },
      body: raw,
    });
    const answer = await call(webhook.action as RouteFn, request);
    expect(expectApiError(answer, 400).message).toBe("The webhook body is not a JSON object");
  });
});

describe("a search with a NUL character matches nothing (the fuzz test on PostgreSQL)", () => {
  // Before: PostgreSQL refused the parameter ('invalid byte sequence for encoding "UTF8": 0x00'),
  // so the admin lists showed 'The list could not be loaded' and logged an error.
  it.each([
    ["orders", adminOrders.loader as RouteFn, "/admin/orders"],
    ["products", adminProducts.loader as RouteFn, "/admin/products"],
    ["users", adminUsers.loader as RouteFn, "/admin/users"],
    ["categories", adminCategories.loader as RouteFn, "/admin/categories"],
  ])("the admin %s list", async (_name, loader, path) => {
    const cookie = mergeCookies([await grantAdmin(getRequest("/"))]);
    const answer = await call(loader, getRequest(`${path}?q=a%00b`, { Cookie: cookie }));
    expect(answer.status).toBe(200);
    const body = answer.body as { error: string | null; list: { rows: unknown[]; info: { total: number } } | null };
    expect(body.error).toBeNull();
    expect(body.list?.rows).toEqual([]);
  });
});
