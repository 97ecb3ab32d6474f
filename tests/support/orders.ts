// Shared setup for the order and payment integration tests: verified customers with API
// tokens, carts filled through the API, the checkout fields, and row counts read straight
// from the database.
import { createTestItem, setItemFigures } from "./items";
import crypto from "node:crypto";
import { expect } from "vitest";
import { db, nowIso, toCount } from "~/lib/db.server";
import { issueToken } from "~/lib/api-tokens.server";
import { clientOf } from "~/lib/rate-limit.server";
import type { User } from "~/models/users/users.server";
import { getUserById } from "~/models/users/users.server";
import { registerAccount, verifySignup } from "~/models/users/signup.server";
import * as cartAdd from "~/routes/api.cart.add";
import * as cartGet from "~/routes/api.cart.get";
import * as ordersAdd from "~/routes/api.orders_.add";
import { latestCode } from "./outbox";
import { getRequest, jsonRequest } from "./requests";
import type { Answer } from "./route-calls";
import { asRecord, call } from "./route-calls";
import { SHIPPING } from "./shipping.mjs";

export const PASSWORD = "secret12";

export interface Customer {
  user: User;
  email: string;
  token: string;
  auth: { Authorization: string };
}

/** A unique address per call: rate limits and accounts are per email. */
export const uniqueEmail = (tag: string) => `${tag}-${crypto.randomBytes(6).toString("hex")}@example.com`;

/** A verified account (sign-up code from the outbox) and a bearer token for it. */
export async function newCustomer(tag: string): Promise<Customer> {
  const email = uniqueEmail(tag);
  const client = clientOf(jsonRequest("POST", "/api/user/auth/register", {}));
  await registerAccount({ name: `Test ${tag}`, email, mobile: null, password: PASSWORD }, client);
  const user = await verifySignup(email, await latestCode(email), null, client);
  const token = await issueToken(user.id);
  return { user, email, token, auth: { Authorization: `Bearer ${token}` } };
}

/**
 * A verified customer with a token, written straight into the database: for tests that need many
 * accounts quickly (the sign-up path has its own tests, and its per-address limits).
 */
export async function directCustomer(tag: string, passwordHash: string | null = null): Promise<Customer> {
  const email = uniqueEmail(tag);
  const now = nowIso();
  const row = await db
    .insertInto("users")
    .values({ name: `Test ${tag}`, email, mobile: null, passwordHash, emailVerifiedAt: now, createdAt: now, updatedAt: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  const user = (await getUserById(row.id))!;
  const token = await issueToken(row.id);
  return { user, email, token, auth: { Authorization: `Bearer ${token}` } };
}

/** Several customers at once (the password hashes run side by side). */
export function newCustomers(tag: string, n: number): Promise<Customer[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => newCustomer(`${tag}${i}`)));
}

/** The shipping address an order built from checkoutFields() carries (tests/support/shipping.mjs). */
export { SHIPPING };

/** The checkout form's fields; the shipping email differs from the account's on purpose. */
export function checkoutFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...SHIPPING, paymentMethod: "cod", ...overrides };
}

export async function addToCart(customer: Customer, itemId: number, quantity: number): Promise<void> {
  const added = await call(cartAdd.action, jsonRequest("POST", "/api/cart/add", { itemId, quantity }, customer.auth));
  expect(added.status).toBe(200);
}

export interface CartView {
  count: number;
  subtotal: number;
  total: number;
  items: { id: number; itemId: number; quantity: number }[];
}

export async function cartOf(customer: Customer): Promise<CartView> {
  const answer = await call(cartGet.loader, getRequest("/api/cart/get", customer.auth));
  expect(answer.status).toBe(200);
  return asRecord(answer.body) as unknown as CartView;
}

/** [itemId, quantity] pairs of the customer's cart, in item order. */
export async function cartLines(customer: Customer): Promise<[number, number][]> {
  const cart = await cartOf(customer);
  return cart.items.map((l) => [l.itemId, l.quantity] as [number, number]).sort((a, b) => a[0] - b[0]);
}

/** POST /api/orders/add with the customer's token. */
export function placeViaApi(customer: Customer | null, body: Record<string, unknown>): Promise<Answer> {
  return call(ordersAdd.action, jsonRequest("POST", "/api/orders/add", body, customer ? customer.auth : {}));
}

export async function stockOf(itemId: number): Promise<number> {
  const row = await db.selectFrom("items").select("stock").where("id", "=", itemId).executeTakeFirstOrThrow();
  return row.stock;
}

export async function setStock(itemId: number, stock: number): Promise<void> {
  await setItemFigures(itemId, { stock });
}

export async function countOrders(userId?: number): Promise<number> {
  let query = db.selectFrom("orders").select((eb) => eb.fn.countAll<number | string>().as("n"));
  if (userId !== undefined) query = query.where("userId", "=", userId);
  return toCount((await query.executeTakeFirstOrThrow()).n);
}

export async function countOrderItems(itemId?: number): Promise<number> {
  let query = db.selectFrom("orderItems").select((eb) => eb.fn.countAll<number | string>().as("n"));
  if (itemId !== undefined) query = query.where("itemId", "=", itemId);
  return toCount((await query.executeTakeFirstOrThrow()).n);
}

export async function countOrderEvents(): Promise<number> {
  const row = await db
    .selectFrom("orderEvents")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}

export function eventsOf(orderId: number) {
  return db
    .selectFrom("orderEvents")
    .select(["fromStatus", "toStatus", "actor", "actorUserId"])
    .where("orderId", "=", orderId)
    .orderBy("id")
    .execute();
}

/** A snapshot of everything an order placement writes, to prove a refused one wrote nothing. */
export async function snapshot(customer: Customer, itemIds: number[]) {
  return {
    orders: await countOrders(),
    orderItems: await countOrderItems(),
    events: await countOrderEvents(),
    stock: await Promise.all(itemIds.map(stockOf)),
    cart: await cartLines(customer),
  };
}

/** A maker of products of a test file's own (slugs `<prefix>-<tag>-<n>`), so stock arithmetic is not shared between tests. */
export function itemMaker(prefix: string) {
  let counter = 0;
  return (tag: string, price: number, stock: number) => createTestItem(`${prefix}-${tag}-${++counter}`, { price, stock });
}
