// docs/api.md, checked against the code. Every request table of the document (the requests that
// change something: `| request | who | fields | answer |`) is read, and each row is sent as written:
// its method and path, its fixed field (`intent=add`), every field it lists (optional ones too),
// as its `who`; the answer must be a success (2xx or 3xx), so the names the docs give are the
// names the code reads. A staff row is sent first with one field more, which must be refused
// (400 'Unknown field: …'), and then as written, which must succeed: the refusal wrote nothing.
// Last, every route module that takes a write must be in some table.
//
// The values come from the scenario of each row (the ids, codes and signatures the row needs,
// made through the documented paths themselves) or else from DEFAULTS by the field's name; a
// row or a field the test has no value for fails, so the document and this test move together.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes";
import type { RouteManifest } from "@remix-run/dev/dist/config/routes";
import type { AgnosticRouteObject } from "@remix-run/router";
import { matchRoutes } from "@remix-run/router";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { queueMail } from "~/lib/outbox.server";
import { signWebhook } from "~/lib/payments.server";
import { variantEditor } from "~/models/catalogue/variant-editor.server";
import { newTotpSecret, timeStep, totpCode } from "~/models/staff/two-step.server";
import * as twoStepPage from "~/routes/admin_.login_.two-step";
import { PRODUCT_COLUMNS } from "~/utils/product-csv";
import { grantAdmin } from "~/web/sign-in.server";
import { createTestItem, defaultVariantId } from "../support/items";
import { createStaff, staffCookie } from "../support/staff";
import { latestCode, latestEmailChangeCode, latestResetLink, mailsTo } from "../support/outbox";
import { getRequest, mergeCookies, ORIGIN } from "../support/requests";
import type { Answer, RouteFn } from "../support/route-calls";
import { asRecord, call, cookieJar } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, cartOf, checkoutFields, newCustomer, PASSWORD, SHIPPING, uniqueEmail } from "../support/orders";

const ROOT = path.resolve(__dirname, "../..");
const APP = path.join(ROOT, "app");

// ---- the document's request tables ---------------------------------------------------------

interface Row {
  /** the request cell as written: the row's name here */
  request: string;
  method: string;
  /** the path as documented, `{name}` for a part the caller fills in */
  path: string;
  /** a field the row fixes (`intent=add`) */
  fixed: [string, string] | null;
  who: "anyone" | "customer" | "staff" | "Razorpay";
  fields: { name: string; optional: boolean }[];
}

const HEADER = /^\|\s*request\s*\|\s*who\s*\|\s*fields\s*\|\s*answer\s*\|\s*$/;
const REQUEST = /^`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`(?:\s+`([^=`]+)=([^`]*)`)?(?:\s+\([^)]*\))?$/;
const FIELD = /^`([^`]+)`(\?)?(?:\s*\(.*\))?$/s;

/** A cell's top-level comma-separated parts (commas inside brackets belong to the part). */
function parts(cell: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of cell) {
    if ("([{".includes(ch)) depth++;
    if (")]}".includes(ch)) depth--;
    if (ch === "," && depth === 0) {
      out.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

function readRows(markdown: string): Row[] {
  const rows: Row[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!HEADER.test(lines[i]!)) continue;
    for (let j = i + 2; j < lines.length && lines[j]!.startsWith("|"); j++) {
      const cells = lines[j]!.split("|")
        .slice(1, -1)
        .map((c) => c.trim());
      expect(cells, `docs/api.md line ${j + 1}: four cells`).toHaveLength(4);
      const [request, who, fieldsCell] = cells as [string, string, string];
      const m = REQUEST.exec(request);
      expect(m, `docs/api.md line ${j + 1}: a request cell of the form \`METHOD /path\` \`field=value\`?`).not.toBeNull();
      expect(["anyone", "customer", "staff", "Razorpay"], `docs/api.md line ${j + 1}: who`).toContain(who);
      const fields =
        fieldsCell === "none" || fieldsCell.startsWith("none ")
          ? []
          : parts(fieldsCell).map((part) => {
              const f = FIELD.exec(part);
              expect(f, `docs/api.md line ${j + 1}: the field "${part}" is not \`name\`, \`name\`? or \`name\` (note)`).not.toBeNull();
              return { name: f![1]!, optional: f![2] === "?" };
            });
      rows.push({
        request,
        method: m![1]!,
        path: m![2]!,
        fixed: m![3] ? [m![3], m![4]!] : null,
        who: who as Row["who"],
        fields,
      });
    }
  }
  return rows;
}

// ---- routes, as Remix matches them --------------------------------------------------------------

const manifest: RouteManifest = flatRoutes(APP, ["**/.*", "**/*.server.*", "**/*.test.*"]);

function routeTree(parentId: string): AgnosticRouteObject[] {
  return Object.values(manifest)
    .filter((r) => (r.parentId ?? "root") === parentId && r.id !== "root")
    .map((r) =>
      r.index ? { id: r.id, index: true, path: r.path } : { id: r.id, path: r.path, children: routeTree(r.id), caseSensitive: false },
    );
}
const ROUTES: AgnosticRouteObject[] = [{ id: "root", path: "", children: routeTree("root") }];

/** The route module a path reaches, and its params. */
async function routeFor(pathname: string): Promise<{ file: string; action: RouteFn; params: Record<string, string> }> {
  const match = matchRoutes(ROUTES, pathname)?.at(-1);
  if (!match || match.route.id === "root") throw new Error(`no route serves ${pathname}`);
  const file = manifest[match.route.id!]!.file;
  const mod = (await import(/* @vite-ignore */ path.join(APP, file))) as { action?: RouteFn };
  if (!mod.action) throw new Error(`${file} (${pathname}) has no action`);
  return { file, action: mod.action, params: match.params as Record<string, string> };
}

// ---- sending -----------------------------------------------------------------------------------

type Value = string | number | boolean | File | Value[] | { [key: string]: Value };
type Body = Record<string, Value>;
type Auth = Record<string, string>;

/** JSON for the API paths; a form for the pages and Razorpay's redirect callback (a browser form post). */
const isJsonPath = (p: string) => (p.startsWith("/api/") || p.startsWith("/rzp/")) && !p.startsWith("/rzp/payment-callback");

function formBody(body: Body): { body: string | FormData; type: string | null } {
  const pairs: [string, string | File][] = [];
  for (const [k, v] of Object.entries(body)) {
    for (const one of Array.isArray(v) ? v : [v]) {
      pairs.push([k, one instanceof File ? one : typeof one === "object" ? JSON.stringify(one) : String(one)]);
    }
  }
  if (!pairs.some(([, v]) => v instanceof File)) {
    return { body: new URLSearchParams(pairs as [string, string][]).toString(), type: "application/x-www-form-urlencoded" };
  }
  const form = new FormData();
  for (const [k, v] of pairs) form.append(k, v);
  return { body: form, type: null };
}

async function buildRequest(method: string, url: string, body: Body | null, auth: Auth, extra: (raw: string) => Auth): Promise<Request> {
  const headers: Record<string, string> = { Host: "localhost:3000", Origin: ORIGIN, ...auth };
  if (body === null) return new Request(`${ORIGIN}${url}`, { method, headers });
  if (isJsonPath(url)) {
    const raw = JSON.stringify(body);
    return new Request(`${ORIGIN}${url}`, {
      method,
      headers: { ...headers, "Content-Type": "application/json", ...extra(raw) },
      body: raw,
    });
  }
  const { body: encoded, type } = formBody(body);
  if (type) return new Request(`${ORIGIN}${url}`, { method, headers: { ...headers, "Content-Type": type }, body: encoded });
  // Multipart as a browser sends it: with its boundary and Content-Length.
  const probe = new Request(`${ORIGIN}${url}`, { method, body: encoded });
  const bytes = await probe.arrayBuffer();
  return new Request(`${ORIGIN}${url}`, {
    method,
    headers: { ...headers, "Content-Type": probe.headers.get("Content-Type")!, "Content-Length": String(bytes.byteLength) },
    body: bytes,
  });
}

/** Send a request to the route that serves `url` (setup goes through the documented paths too). */
async function send(method: string, url: string, body: Body | null, auth: Auth = {}, extra: (raw: string) => Auth = () => ({})) {
  const { action, params } = await routeFor(new URL(url, ORIGIN).pathname);
  return call(action, await buildRequest(method, url, body, auth, extra), params);
}

function expectSuccess(answer: Answer, what: string) {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body).slice(0, 400)}`).toBeGreaterThanOrEqual(200);
  expect(answer.status, `${what}: ${JSON.stringify(answer.body).slice(0, 400)}`).toBeLessThan(400);
  return answer;
}

// ---- the shop's state the rows need ---------------------------------------------------------------

let ITEM_ID = 0;
let VARIANT_ID = 0;
const ITEM_SLUG = "api-docs-bench";
const COUPON = "DOCS-10";
let staff: Auth = {};
let categoryIds: number[] = [];
let shopper: Shopper;

/** A verified customer: a bearer token for the API, a session cookie for the pages. */
interface Shopper {
  customer: Customer;
  token: Auth;
  cookie: Auth;
}

let tags = 0;
async function newShopper(): Promise<Shopper> {
  const customer = await newCustomer(`docs${++tags}`);
  const login = expectSuccess(await send("POST", "/login", { email: customer.email, password: PASSWORD }), "sign in");
  return { customer, token: customer.auth, cookie: { Cookie: cookieJar(login) } };
}

const body = (answer: Answer) => asRecord(answer.body);
const locationOf = (answer: Answer) => answer.headers.get("Location") ?? "";

async function placeCod(who: Shopper): Promise<number> {
  await addToCart(who.customer, ITEM_ID, 1);
  const placed = expectSuccess(await send("POST", "/api/orders/add", checkoutFields() as Body, who.token), "place an order");
  return body(placed).id as number;
}

async function setStatus(orderId: number, ...statuses: string[]) {
  for (const status of statuses) {
    expectSuccess(await send("PUT", "/api/orders/changeStatus", { orderId, status }, staff), `order ${orderId} ${status}`);
  }
}

/** A customer whose order of the test's bench was delivered just now (reviews and returns are open). */
async function delivered(): Promise<Shopper & { orderId: number; orderItemId: number }> {
  const who = await newShopper();
  const orderId = await placeCod(who);
  await setStatus(orderId, "shipped", "delivered");
  const line = await db.selectFrom("orderItems").select("id").where("orderId", "=", orderId).executeTakeFirstOrThrow();
  return { ...who, orderId, orderItemId: line.id };
}

async function requestedReturn() {
  const d = await delivered();
  const lines = [{ orderItemId: d.orderItemId, quantity: 1 }];
  const made = expectSuccess(
    await send("POST", `/api/orders/${d.orderId}/returns`, { reason: "damaged", details: "The leg is split.", lines }, d.token),
    "request a return",
  );
  return { ...d, returnId: body(made).id as number };
}

async function review(): Promise<number> {
  const d = await delivered();
  const made = await send("POST", "/api/item/reviews", { itemId: ITEM_ID, rating: 4, title: "Sturdy", body: "Well made." }, d.token);
  return body(expectSuccess(made, "write a review")).id as number;
}

/** A payment order of the customer's cart made through the API (no shipping details stored). */
async function apiPaymentOrder(who: Shopper): Promise<string> {
  await addToCart(who.customer, ITEM_ID, 1);
  return body(expectSuccess(await send("POST", "/rzp/create-order", {}, who.token), "create a payment order")).id as string;
}

/** A payment order made by the checkout page (shipping details stored with it), paid or not. */
async function pagePaymentOrder(who: Shopper): Promise<string> {
  await addToCart(who.customer, ITEM_ID, 1);
  const { total } = await cartOf(who.customer);
  const fields = { ...checkoutFields({ paymentMethod: "online" }), idempotencyKey: key(), expectedTotal: total } as Body;
  const answer = expectSuccess(await send("POST", "/checkout", fields, who.cookie), "checkout online");
  const id = /^\/pay\/(order_\w+)$/.exec(locationOf(answer))?.[1];
  expect(id, locationOf(answer)).toBeTruthy();
  return id!;
}

/** The test gateway's proof of payment for a payment order (offline mode). */
async function proofOf(who: Shopper, paymentOrderId: string): Promise<Body> {
  return body(
    expectSuccess(await send("POST", `/rzp/test-gateway/${paymentOrderId}/pay`, {}, who.token), "pay on the test gateway"),
  ) as Body;
}

/** A paid payment whose order was refused (the cart changed after paying): what the refunds page offers to refund. */
async function paidUnplaced(): Promise<string> {
  const who = await newShopper();
  const id = await apiPaymentOrder(who);
  const proof = await proofOf(who, id);
  await addToCart(who.customer, ITEM_ID, 1);
  const refused = await send("POST", "/api/orders/add", { ...checkoutFields({ paymentMethod: "online" }), ...proof } as Body, who.token);
  expect(refused.status, JSON.stringify(refused.body)).toBe(409);
  return id;
}

/** A refund of the staff's, set to `status` as the gateway could have left it. */
async function refundIn(status: "failed" | "pending"): Promise<number> {
  const paymentOrderId = await paidUnplaced();
  expectSuccess(await send("POST", "/admin/refunds", { intent: "refund-payment", paymentOrderId }, staff), "refund a payment");
  const refund = await db.selectFrom("refunds").select("id").where("paymentOrderId", "=", paymentOrderId).executeTakeFirstOrThrow();
  await db
    .updateTable("refunds")
    .set({ status, gatewayRefundId: null, processedAt: null, failureReason: status === "failed" ? "declined" : null })
    .where("id", "=", refund.id)
    .execute();
  return refund.id;
}

const key = () => crypto.randomBytes(16).toString("hex");
let uniques = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++uniques}`;
const PNG = () =>
  new File(
    [Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64")],
    "photo.png",
    { type: "image/png" },
  );

/** A row of a staff list made through its own create form: its id, found by a column the form wrote. */
async function made(
  pathname: string,
  fields: Body,
  table: "categories" | "items" | "users" | "coupons" | "deliveryZones",
  column: string,
): Promise<number> {
  expectSuccess(await send("POST", pathname, { intent: "create", ...fields }, staff), `create at ${pathname}`);
  const row = await db
    .selectFrom(table)
    .select("id")
    .where(column as never, "=", fields[column] as never)
    .executeTakeFirstOrThrow();
  return row.id;
}

const newCategory = () =>
  made(
    "/admin/categories",
    { title: unique("Docs shelf"), description: "Shelves.", imgPath: "/images/categories/office.svg" },
    "categories",
    "title",
  );
const newProduct = () =>
  made(
    "/admin/products",
    {
      title: unique("Docs stool"),
      categoryId: categoryIds[0]!,
      price: 4999,
      description: "A stool.",
      imgPath: "/images/products/x.svg",
      inStock: "on",
      stock: 5,
    },
    "items",
    "title",
  );
/**
 * A product of its own with one option (Fabric: Linen, Velvet unless told), given through the
 * variants page; with `generate`, every combination made. Its options and variants as the page reads them.
 */
async function variantProduct(name = "Fabric", values = "Linen, Velvet", generate = false) {
  const id = await newProduct();
  const page = `/admin/products/${id}/variants`;
  expectSuccess(await send("POST", page, { intent: "add-option", name, values }, staff), "add an option");
  if (generate) expectSuccess(await send("POST", page, { intent: "generate", price: 5000, stock: 2 }, staff), "generate");
  const editor = (await variantEditor(id))!;
  return { id, options: editor.options, variants: editor.variants };
}
/** A small JPEG, as the photos page takes it. */
const photoFile = async () =>
  new File(
    [
      await sharp({ create: { width: 400, height: 300, channels: 3, background: "#8b5a2b" } })
        .jpeg()
        .toBuffer(),
    ],
    "photo.jpg",
    {
      type: "image/jpeg",
    },
  );
/** A product (its own unless given) with `count` photos uploaded through its page: the last one's id. */
async function productPhoto(id?: number, count = 1) {
  const itemId = id ?? (await newProduct());
  for (let i = 0; i < count; i++) {
    expectSuccess(
      await send("POST", `/admin/products/${itemId}/photos`, { intent: "upload", photos: await photoFile() }, staff),
      "upload a photo",
    );
  }
  const last = await db
    .selectFrom("productPhotos")
    .select("id")
    .where("itemId", "=", itemId)
    .orderBy("position", "desc")
    .executeTakeFirstOrThrow();
  return { id: itemId, photoId: last.id };
}
const newUser = () => made("/admin/users", { name: "Docs User", email: uniqueEmail("docs-user") }, "users", "email");
const newCoupon = () => made("/admin/coupons", { code: unique("DOCS").toUpperCase(), kind: "percent", value: 5 }, "coupons", "code");
let ranges = 0;
const newZone = () => {
  const from = 799_001 + 20 * ranges++;
  return made(
    "/admin/delivery",
    {
      kind: "range",
      pincodeFrom: String(from),
      pincodeTo: String(from + 9),
      minDays: 4,
      maxDays: 6,
      served: "on",
      label: unique("Docs zone"),
    },
    "deliveryZones",
    "label",
  );
};

// ---- values ----------------------------------------------------------------------------------------

/** Values by field name, for the fields a row's scenario leaves to them. */
const DEFAULTS: Record<string, () => Value> = {
  name: () => SHIPPING.name,
  address: () => SHIPPING.address,
  city: () => SHIPPING.city,
  state: () => SHIPPING.state,
  pincode: () => SHIPPING.pincode,
  phone: () => SHIPPING.phone,
  email: () => uniqueEmail("docs"),
  mobile: () => "9876543210",
  password: () => PASSWORD,
  confirmPassword: () => PASSWORD,
  itemId: () => ITEM_ID,
  // the test product's only variant (named, as a client choosing a fabric would)
  variantId: () => VARIANT_ID,
  quantity: () => 2,
  redirectTo: () => "/cart",
  previous: () => "1",
  couponCode: () => COUPON,
  idempotencyKey: () => key(),
  subject: () => "Feedback",
  message: () => "Is the bench available in walnut?",
  rating: () => 5,
  title: () => "Sturdy and handsome",
  body: () => "The joints are tight and the finish is even.",
  details: () => "One leg arrived split.",
  reason: () => "damaged",
  remember: () => "on",
  terms: () => "on",
  amount: () => 1,
  outcome: () => "paid",
  page: () => "1",
  status: () => "open",
};

interface Scenario {
  /** the `{name}` parts of the path (and of field names such as `qty-{orderItemId}`) */
  params?: Record<string, string | number>;
  /** field values this row needs; DEFAULTS give the rest */
  values?: Body;
  /** the caller, when not the row's usual one (the shared shopper, or the staff) */
  auth?: Auth;
  /** headers computed over the raw JSON body (a signed webhook) */
  signed?: (raw: string) => Auth;
}

/** A category's fields, with an upload beside the image address (the upload wins). */
const categoryFields = (): Body => ({
  title: unique("Docs cabinets"),
  description: "Cabinets.",
  imgPath: "/images/categories/office.svg",
  imageFile: PNG(),
});

/** A line of the shared shopper's cart (a unit of the bench added first): its id. */
async function shopperLine(): Promise<number> {
  await addToCart(shopper.customer, ITEM_ID, 1);
  return (await cartOf(shopper.customer)).items[0]!.id;
}

/** The shared shopper's cart holds something (a coupon applies to a cart, a payment order charges one). */
async function nonEmptyCart(): Promise<Scenario> {
  await addToCart(shopper.customer, ITEM_ID, 1);
  return {};
}

/** A customer's new email, asked for (PUT /api/auth/profile) and waiting for the code mailed to it. */
async function askNewEmail(who: Shopper): Promise<string> {
  const email = uniqueEmail("docs-new");
  expectSuccess(await send("PUT", "/api/auth/profile", { email, currentPassword: PASSWORD }, who.token), "ask for a new email");
  return email;
}

/** What each documented row needs, by its request cell. */
const SCENARIOS: Record<string, () => Promise<Scenario>> = {
  // Accounts
  "`POST /api/user/auth/register`": async () => ({}),
  "`POST /api/auth/register`": async () => ({}),
  "`POST /api/user/auth/verifyOtp`": async () => {
    const email = uniqueEmail("docs-otp");
    const reg = await send("POST", "/api/user/auth/register", { name: "Docs Otp", email, password: PASSWORD });
    return { values: { email, otp: await latestCode(email), attemptId: body(expectSuccess(reg, "register")).attemptId as string } };
  },
  "`POST /api/user/auth/resendOtp`": async () => {
    const email = uniqueEmail("docs-resend");
    const reg = await send("POST", "/api/user/auth/register", { name: "Docs Resend", email, password: PASSWORD });
    return { values: { email, attemptId: body(expectSuccess(reg, "register")).attemptId as string } };
  },
  "`POST /api/user/auth/login`": async () => ({ values: { email: shopper.customer.email } }),
  "`POST /api/auth/login`": async () => ({ values: { email: shopper.customer.email } }),
  "`PUT /api/auth/profile`": async () => {
    const who = await newShopper();
    return { auth: who.token, values: { currentPassword: PASSWORD } };
  },
  "`POST /api/auth/confirm-email`": async () => {
    const who = await newShopper();
    const email = await askNewEmail(who);
    return { auth: who.token, values: { code: await latestEmailChangeCode(email) } };
  },
  "`POST /api/auth/logout`": async () => ({ auth: (await newShopper()).token }),
  "`POST /api/user/auth/logout`": async () => ({ auth: (await newShopper()).token }),
  // Cart (the shopper's cart: "anyone" is a guest or a customer)
  "`POST /api/cart/add`": async () => ({ auth: shopper.token }),
  "`PUT /api/cart/update`": async () => ({ auth: shopper.token, values: { id: await shopperLine() } }),
  "`DELETE /api/cart/clear/{id}`": async () => ({ auth: shopper.token, params: { id: await shopperLine() } }),
  "`DELETE /api/cart/clear`": async () => ({ auth: shopper.token }),
  "`POST /api/cart/coupon`": nonEmptyCart,
  "`DELETE /api/cart/coupon`": async () => ({}),
  // Orders
  "`POST /api/orders/add` `paymentMethod=cod`": async () => {
    const who = await newShopper();
    await addToCart(who.customer, ITEM_ID, 1);
    return { auth: who.token };
  },
  "`POST /api/orders/add` `paymentMethod=online`": async () => {
    const who = await newShopper();
    return { auth: who.token, values: await proofOf(who, await apiPaymentOrder(who)) };
  },
  "`PUT /api/orders/changeStatus` `status=cancelled`": async () => {
    const who = await newShopper();
    return { auth: who.token, values: { orderId: await placeCod(who) } };
  },
  "`PUT /api/orders/changeStatus`": async () => ({
    values: {
      orderId: await placeCod(await newShopper()),
      status: "shipped",
      shipUnpaid: true,
      carrier: "Blue Dart",
      trackingNumber: "BD-1234",
    },
  }),
  "`POST /api/orders/{id}/returns`": async () => {
    const d = await delivered();
    return { auth: d.token, params: { id: d.orderId }, values: { lines: [{ orderItemId: d.orderItemId, quantity: 1 }] } };
  },
  "`PUT /api/returns/changeStatus`": async () => ({
    values: { returnId: (await requestedReturn()).returnId, status: "approved", note: "Photos checked." },
  }),
  "`POST /api/item/reviews`": async () => ({ auth: (await delivered()).token }),
  // Payments
  "`POST /rzp/create-order`": nonEmptyCart,
  "`POST /rzp/verify-payment`": async () => {
    const who = await newShopper();
    return { auth: who.token, values: await proofOf(who, await apiPaymentOrder(who)) };
  },
  "`POST /rzp/test-gateway/{razorpay_order_id}/pay`": async () => {
    const who = await newShopper();
    return { auth: who.token, params: { razorpay_order_id: await apiPaymentOrder(who) } };
  },
  "`POST /rzp/payment-callback` (a payment)": async () => {
    const who = await newShopper();
    return { values: await proofOf(who, await pagePaymentOrder(who)) };
  },
  "`POST /rzp/payment-callback` (a failed payment)": async () => {
    const id = await apiPaymentOrder(await newShopper());
    return {
      values: {
        "error[code]": "BAD_REQUEST_ERROR",
        "error[description]": "Payment failed",
        "error[source]": "customer",
        "error[step]": "payment_authorization",
        "error[reason]": "payment_failed",
        "error[metadata][order_id]": id,
        "error[metadata][payment_id]": "pay_TESTdocsfailed01",
      },
    };
  },
  "`POST /rzp/webhook`": async () => {
    const id = await apiPaymentOrder(await newShopper());
    return {
      values: { event: "payment.failed", payload: { payment: { entity: { order_id: id } } } },
      signed: (raw) => ({ "X-Razorpay-Signature": signWebhook(raw) }),
    };
  },
  // Newsletter and contact
  "`POST /api/stuff/addSubsEmail`": async () => ({}),
  "`POST /api/stuff/sendMail`": async () => ({}),
  // Storefront and account pages
  "`POST /` `intent=newsletter`": async () => ({}),
  "`POST /cart` `intent=add`": async () => ({}),
  "`POST /cart` `intent=update`": async () => ({ auth: shopper.cookie, values: { id: await shopperLine() } }),
  "`POST /cart` `intent=remove`": async () => ({ auth: shopper.cookie, values: { id: await shopperLine() } }),
  "`POST /cart` `intent=clear`": async () => ({ auth: shopper.cookie }),
  "`POST /cart` `intent=apply-coupon`": nonEmptyCart,
  "`POST /cart` `intent=remove-coupon`": async () => ({}),
  "`POST /wishlist` `intent=add`": async () => ({ values: { redirectTo: "/wishlist" } }),
  "`POST /wishlist` `intent=remove`": async () => {
    expectSuccess(await send("POST", "/wishlist", { intent: "add", itemId: ITEM_ID }, shopper.cookie), "save to the wishlist");
    return { auth: shopper.cookie, values: { redirectTo: "/wishlist" } };
  },
  "`POST /checkout`": async () => {
    const who = await newShopper();
    await addToCart(who.customer, ITEM_ID, 1);
    return { auth: who.cookie, values: { paymentMethod: "cod", expectedTotal: (await cartOf(who.customer)).total } };
  },
  "`POST /checkout` `intent=apply-coupon`": nonEmptyCart,
  "`POST /checkout` `intent=remove-coupon`": async () => ({}),
  "`POST /pay/{paymentOrderId}` `intent=gateway`": async () => {
    const who = await newShopper();
    return { auth: who.cookie, params: { paymentOrderId: await apiPaymentOrder(who) } };
  },
  "`POST /pay/{paymentOrderId}` `intent=complete`": async () => {
    const who = await newShopper();
    const id = await pagePaymentOrder(who);
    return { auth: who.cookie, params: { paymentOrderId: id }, values: await proofOf(who, id) };
  },
  "`POST /pay/{paymentOrderId}` `intent=place`": async () => {
    const who = await newShopper();
    const id = await pagePaymentOrder(who);
    expectSuccess(await send("POST", "/rzp/verify-payment", await proofOf(who, id), who.token), "verify the payment");
    return { auth: who.cookie, params: { paymentOrderId: id } };
  },
  "`POST /orders` `intent=cancel`": async () => {
    const who = await newShopper();
    return { auth: who.cookie, values: { orderId: await placeCod(who) } };
  },
  "`POST /order-confirmation/{id}` `intent=request-return`": async () => {
    const d = await delivered();
    return { auth: d.cookie, params: { id: d.orderId, orderItemId: d.orderItemId }, values: { "qty-{orderItemId}": 1 } };
  },
  "`POST /product/{slug}/review` `intent=save`": async () => ({ auth: (await delivered()).cookie, params: { slug: ITEM_SLUG } }),
  "`POST /product/{slug}/review` `intent=helpful`": async () => ({
    params: { slug: ITEM_SLUG },
    values: { reviewId: await review(), redirectTo: `/product/${ITEM_SLUG}` },
  }),
  "`POST /contact`": async () => ({}),
  "`POST /signup`": async () => ({}),
  "`POST /verify-otp` `intent=resend`": async () => {
    const email = uniqueEmail("docs-signup");
    const signup = await send("POST", "/signup", {
      name: "Docs Signup",
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      terms: "on",
    });
    return { auth: { Cookie: cookieJar(expectSuccess(signup, "sign up")) }, values: { email } };
  },
  "`POST /verify-otp` `intent=verify`": async () => {
    const email = uniqueEmail("docs-signup");
    const signup = await send("POST", "/signup", {
      name: "Docs Signup",
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      terms: "on",
    });
    return { auth: { Cookie: cookieJar(expectSuccess(signup, "sign up")) }, values: { email, otp: [...(await latestCode(email))] } };
  },
  "`POST /login`": async () => ({ values: { email: (await newShopper()).customer.email, redirectTo: "/profile" } }),
  "`POST /logout`": async () => ({ auth: (await newShopper()).cookie, values: { redirectTo: "/" } }),
  "`POST /forgot-password`": async () => ({ values: { email: shopper.customer.email } }),
  "`POST /reset-password`": async () => {
    const who = await newShopper();
    expectSuccess(await send("POST", "/forgot-password", { email: who.customer.email }), "ask for a reset link");
    return {
      values: {
        token: new URL(await latestResetLink(who.customer.email)).searchParams.get("token")!,
        password: "fresh-secret-1",
        confirmPassword: "fresh-secret-1",
      },
    };
  },
  "`POST /profile/details`": async () => ({ auth: (await newShopper()).cookie, values: { currentPassword: PASSWORD } }),
  "`POST /profile/password`": async () => ({
    auth: (await newShopper()).cookie,
    values: { currentPassword: PASSWORD, newPassword: "fresh-secret-2", confirmPassword: "fresh-secret-2" },
  }),
  "`POST /profile/email/confirm`": async () => {
    const who = await newShopper();
    const email = await askNewEmail(who);
    return { auth: who.cookie, values: { code: [...(await latestEmailChangeCode(email))] } };
  },
  "`POST /profile/email/resend`": async () => {
    const who = await newShopper();
    await askNewEmail(who);
    return { auth: who.cookie };
  },
  "`POST /profile/email/cancel`": async () => {
    const who = await newShopper();
    await askNewEmail(who);
    return { auth: who.cookie };
  },
  "`POST /admin/login`": async () => {
    const member = await createStaff("support");
    return { values: { email: member.email, password: member.password, respond: "inline" } };
  },
  "`POST /admin/login/code`": async () => {
    const secret = newTotpSecret();
    const member = await createStaff("manager", { totpSecret: secret });
    const pending = await send("POST", "/admin/login", { email: member.email, password: member.password });
    return {
      auth: { Cookie: cookieJar(expectSuccess(pending, "the password step")) },
      values: { code: await totpCode(secret, timeStep()) },
    };
  },
  "`POST /admin/login/two-step` `intent=confirm`": async () => {
    const member = await createStaff("manager", { totpSecret: null });
    const pending = await send("POST", "/admin/login", { email: member.email, password: member.password });
    let cookie = cookieJar(expectSuccess(pending, "the password step"));
    const page = await call(twoStepPage.loader, getRequest("/admin/login/two-step", { Cookie: cookie }));
    cookie = cookieJar(page, cookie);
    const { secret } = asRecord(page.body) as { secret: string };
    return { auth: { Cookie: cookie }, values: { code: await totpCode(secret, timeStep()) } };
  },
  "`POST /admin/login/two-step` `intent=signout`": async () => ({ auth: { Cookie: await staffCookie(await createStaff("support")) } }),
  "`POST /admin/account` `intent=password`": async () => {
    const member = await createStaff("support");
    return {
      auth: { Cookie: await staffCookie(member) },
      values: { currentPassword: member.password, newPassword: "fresh-staff-secret", confirmPassword: "fresh-staff-secret" },
    };
  },
  "`POST /admin/account` `intent=recovery-codes`": async () => {
    const member = await createStaff("support", { totpSecret: newTotpSecret() });
    return { auth: { Cookie: await staffCookie(member) }, values: { currentPassword: member.password } };
  },
  "`POST /admin/account` `intent=two-step-off`": async () => {
    const member = await createStaff("support", { totpSecret: newTotpSecret() });
    return { auth: { Cookie: await staffCookie(member) }, values: { currentPassword: member.password } };
  },
  "`POST /admin/account` `intent=signout-all`": async () => ({ auth: { Cookie: await staffCookie(await createStaff("fulfilment")) } }),
  // Staff pages
  "`POST /admin/logout`": async () => ({ auth: { Cookie: mergeCookies([await grantAdmin(getRequest("/"))]) } }),
  "`POST /admin/categories` `intent=create`": async () => ({ values: categoryFields() }),
  "`POST /admin/categories` `intent=update`": async () => ({ values: { ...categoryFields(), id: await newCategory() } }),
  "`POST /admin/categories` `intent=delete`": async () => ({ values: { id: await newCategory() } }),
  "`POST /admin/products` `intent=create`": async () => ({ values: productFields() }),
  "`POST /admin/products` `intent=update`": async () => {
    const id = await newProduct();
    const row = await db.selectFrom("items").select(["version", "stock"]).where("id", "=", id).executeTakeFirstOrThrow();
    // `stock` left empty: the adjustment is the change (the docs: one or the other).
    return { values: { ...productFields(), id, version: row.version, stockSeen: row.stock, stockDelta: "+2", stock: "" } };
  },
  "`POST /admin/products` `intent=delete`": async () => ({ values: { id: await newProduct() } }),
  "`POST /admin/products/import`": async () => {
    const cells: Record<(typeof PRODUCT_COLUMNS)[number], string> = {
      slug: "",
      title: unique("Docs imported desk"),
      category: "office",
      price: "12999",
      stock: "3",
      featured: "no",
      made_to_order: "no",
      description: "A desk from a file.",
      imgPath: "/images/products/x.svg",
      specifications: "",
      version: "",
    };
    const csv = `${PRODUCT_COLUMNS.join(",")}\r\n${PRODUCT_COLUMNS.map((c) => cells[c]).join(",")}\r\n`;
    return { values: { file: new File([csv], "products.csv", { type: "text/csv" }) } };
  },
  "`POST /admin/products/{id}/photos` `intent=upload`": async () => {
    const { id, variants } = await variantProduct();
    return { params: { id }, values: { photos: await photoFile(), alt: "Docs stool, side view", variantId: variants[0]!.id } };
  },
  "`POST /admin/products/{id}/photos` `intent=alt`": async () => {
    const { id, photoId } = await productPhoto();
    return { params: { id }, values: { photoId, alt: "Docs stool, from above" } };
  },
  "`POST /admin/products/{id}/photos` `intent=variant`": async () => {
    const { id, variants } = await variantProduct();
    return { params: { id }, values: { photoId: (await productPhoto(id)).photoId, variantId: variants[0]!.id } };
  },
  "`POST /admin/products/{id}/photos` `intent=up`": async () => {
    const { id, photoId } = await productPhoto(await newProduct(), 2);
    return { params: { id }, values: { photoId } };
  },
  "`POST /admin/products/{id}/photos` `intent=down`": async () => {
    const { id, photoId } = await productPhoto();
    return { params: { id }, values: { photoId } };
  },
  "`POST /admin/products/{id}/photos` `intent=delete`": async () => {
    const { id, photoId } = await productPhoto();
    return { params: { id }, values: { photoId } };
  },
  "`POST /admin/products/{id}/variants` `intent=add-option`": async () => ({
    params: { id: await newProduct() },
    values: { name: "Finish", values: "Walnut, Teak" },
  }),
  "`POST /admin/products/{id}/variants` `intent=remove-option`": async () => {
    const { id, options } = await variantProduct("Size", "Large");
    return { params: { id }, values: { optionId: options[0]!.id } };
  },
  "`POST /admin/products/{id}/variants` `intent=add-value`": async () => {
    const { id, options } = await variantProduct();
    return { params: { id }, values: { optionId: options[0]!.id, value: "Boucle" } };
  },
  "`POST /admin/products/{id}/variants` `intent=rename-value`": async () => {
    const { id, options } = await variantProduct();
    return { params: { id }, values: { valueId: options[0]!.values[1]!.id, value: "Cotton Velvet" } };
  },
  "`POST /admin/products/{id}/variants` `intent=value-up`": async () => {
    const { id, options } = await variantProduct();
    return { params: { id }, values: { valueId: options[0]!.values[1]!.id } };
  },
  "`POST /admin/products/{id}/variants` `intent=value-down`": async () => {
    const { id, options } = await variantProduct();
    return { params: { id }, values: { valueId: options[0]!.values[0]!.id } };
  },
  "`POST /admin/products/{id}/variants` `intent=remove-value`": async () => {
    const { id, options } = await variantProduct();
    return { params: { id }, values: { valueId: options[0]!.values[1]!.id } };
  },
  "`POST /admin/products/{id}/variants` `intent=generate`": async () => ({
    params: { id: (await variantProduct()).id },
    values: { price: 5999, stock: 3 },
  }),
  "`POST /admin/products/{id}/variants` `intent=price-all`": async () => ({
    params: { id: (await variantProduct(undefined, undefined, true)).id },
    values: { price: 5499 },
  }),
  "`POST /admin/products/{id}/variants` `intent=save-variant`": async () => {
    const { id, variants } = await variantProduct();
    const v = variants[0]!;
    return {
      params: { id },
      values: {
        variantId: v.id,
        version: v.version,
        sku: unique("DOCS-SKU").toUpperCase(),
        price: 6499,
        active: "on",
        weightGrams: 42000,
        lengthCm: 200,
        widthCm: 90,
        heightCm: 80,
      },
    };
  },
  "`POST /admin/products/{id}/variants` `intent=adjust-stock`": async () => {
    const { id, variants } = await variantProduct();
    const v = variants[0]!;
    return { params: { id }, values: { variantId: v.id, version: v.version, stockSeen: v.stock, stockDelta: "+5" } };
  },
  "`POST /admin/products/{id}/variants` `intent=delete-variant`": async () => {
    const { id, variants } = await variantProduct(undefined, undefined, true);
    return { params: { id }, values: { variantId: variants[1]!.id } };
  },
  "`POST /admin/users` `intent=create`": async () => ({}),
  "`POST /admin/users` `intent=update`": async () => ({ values: { id: await newUser() } }),
  "`POST /admin/users` `intent=delete`": async () => ({ values: { id: await newUser() } }),
  "`POST /admin/coupons` `intent=create`": async () => ({ values: couponFields() }),
  "`POST /admin/coupons` `intent=update`": async () => ({ values: { ...couponFields(), id: await newCoupon() } }),
  "`POST /admin/coupons` `intent=delete`": async () => ({ values: { id: await newCoupon() } }),
  "`POST /admin/coupons` `intent=pause`": async () => ({ values: { id: await newCoupon() } }),
  "`POST /admin/coupons` `intent=resume`": async () => ({ values: { id: await newCoupon() } }),
  "`POST /admin/delivery` `intent=create`": async () => ({ values: zoneFields() }),
  "`POST /admin/delivery` `intent=update`": async () => ({ values: { ...zoneFields(), id: await newZone() } }),
  "`POST /admin/delivery` `intent=delete`": async () => ({ values: { id: await newZone() } }),
  "`POST /admin/orders/{id}` `intent=status`": async () => ({
    params: { id: await placeCod(await newShopper()) },
    values: { status: "shipped", shipUnpaid: "on", carrier: "Blue Dart", trackingNumber: "BD-5678" },
  }),
  "`POST /admin/orders/{id}` `intent=approve-return`": async () => {
    const r = await requestedReturn();
    return { params: { id: r.orderId }, values: { returnId: r.returnId } };
  },
  "`POST /admin/orders/{id}` `intent=reject-return`": async () => {
    const r = await requestedReturn();
    return { params: { id: r.orderId }, values: { returnId: r.returnId, note: "The photos show no damage." } };
  },
  "`POST /admin/orders/{id}` `intent=receive-return`": async () => {
    const r = await requestedReturn();
    expectSuccess(
      await send("PUT", "/api/returns/changeStatus", { returnId: r.returnId, status: "approved" }, staff),
      "approve the return",
    );
    return { params: { id: r.orderId }, values: { returnId: r.returnId } };
  },
  "`POST /admin/refunds` `intent=refund-payment`": async () => ({ values: { paymentOrderId: await paidUnplaced() } }),
  "`POST /admin/refunds` `intent=retry`": async () => ({ values: { refundId: await refundIn("failed"), status: "failed" } }),
  "`POST /admin/refunds` `intent=send`": async () => ({ values: { refundId: await refundIn("pending"), status: "pending" } }),
  "`POST /admin/reviews` `intent=hide`": async () => ({ values: { reviewId: await review(), reason: "It names another shop." } }),
  "`POST /admin/reviews` `intent=unhide`": async () => {
    const reviewId = await review();
    expectSuccess(await send("POST", "/admin/reviews", { intent: "hide", reviewId, reason: "Checking it." }, staff), "hide a review");
    return { values: { reviewId } };
  },
  "`POST /admin/mail` `intent=retry`": async () => {
    const id = await queueMail(db, { to: uniqueEmail("docs-mail"), subject: "Your order has shipped", text: "On its way." });
    await db.updateTable("mailOutbox").set({ status: "failed" }).where("id", "=", id).execute();
    return { values: { mailId: id } };
  },
  "`POST /admin/mail` `intent=retry-all`": async () => ({}),
  // Staff management and the staff's mailed links
  "`POST /admin/staff` `intent=invite`": async () => ({
    values: { name: "Docs Staff", email: uniqueEmail("docs-staff"), role: "support" },
  }),
  "`POST /admin/staff` `intent=resend`": async () => ({ values: { id: (await invitedStaff()).id } }),
  "`POST /admin/staff` `intent=role`": async () => ({ values: { id: (await createStaff("support")).id, role: "manager" } }),
  "`POST /admin/staff` `intent=disable`": async () => ({ values: { id: (await createStaff("support")).id } }),
  "`POST /admin/staff` `intent=enable`": async () => {
    const { id } = await createStaff("support");
    expectSuccess(await send("POST", "/admin/staff", { intent: "disable", id }, staff), "disable a staff account");
    return { values: { id } };
  },
  "`POST /admin/staff` `intent=two-step`": async () => ({ values: { id: (await createStaff("fulfilment")).id, on: "on" } }),
  "`POST /admin/staff` `intent=reset-two-step`": async () => ({ values: { id: (await createStaff("manager")).id } }),
  "`POST /admin/staff` `intent=two-step-all`": async () => ({ values: { on: "off" } }),
  "`POST /admin/invite`": async () => {
    const { email } = await invitedStaff();
    const link = (await mailsTo(email)).at(-1)?.text.match(/https?:\/\/\S+\/admin\/invite\?token=(\S+)/)?.[1];
    expect(link, "the invitation's link").toBeTruthy();
    return { values: { token: decodeURIComponent(link!), password: "staff-secret-1", confirmPassword: "staff-secret-1" } };
  },
  "`POST /admin/forgot-password`": async () => ({ values: { email: (await createStaff("support")).email } }),
  "`POST /admin/reset-password`": async () => {
    const { email } = await createStaff("support");
    expectSuccess(await send("POST", "/admin/forgot-password", { email }), "ask for a staff reset link");
    const link = (await mailsTo(email)).at(-1)?.text.match(/https?:\/\/\S+\/admin\/reset-password\?token=(\S+)/)?.[1];
    expect(link, "the reset link").toBeTruthy();
    return { values: { token: decodeURIComponent(link!), password: "staff-secret-2", confirmPassword: "staff-secret-2" } };
  },
};

/** A staff member invited through the page (no password yet): their id and email. */
async function invitedStaff(): Promise<{ id: number; email: string }> {
  const email = uniqueEmail("docs-invited");
  expectSuccess(await send("POST", "/admin/staff", { intent: "invite", name: "Docs Invited", email, role: "fulfilment" }, staff), "invite");
  return { id: (await db.selectFrom("staff").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id, email };
}

function productFields(): Body {
  return {
    title: unique("Docs stool"),
    categoryId: categoryIds[0]!,
    price: 4999,
    description: "A stool of solid sheesham.",
    imgPath: "/images/products/x.svg",
    imageFile: PNG(),
    featured: "on",
    madeToOrder: "on",
    inStock: "on",
    stock: 5,
    specKey: ["Material", "Color"],
    specValue: ["Sheesham", "Walnut"],
  };
}

function couponFields(): Body {
  return {
    code: unique("DOCS").toUpperCase(),
    kind: "percent",
    value: 15,
    minSubtotal: 1000,
    maxDiscount: 2000,
    validFrom: "2026-01-01",
    validUntil: "2030-12-31",
    usageLimit: 100,
    perCustomerLimit: 2,
    categoryIds: categoryIds.map(String),
  };
}

function zoneFields(): Body {
  const from = 799_001 + 20 * ranges++;
  return {
    kind: "range",
    state: "Tripura",
    district: "West Tripura",
    pincodeFrom: String(from),
    pincodeTo: String(from + 9),
    minDays: 4,
    maxDays: 6,
    cod: "on",
    served: "on",
    label: unique("Docs zone"),
  };
}

// ---- the rows, sent -------------------------------------------------------------------------

const ROWS = readRows(fs.readFileSync(path.join(ROOT, "docs/api.md"), "utf8"));
const fill = (text: string, params: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for {${name}} in ${text}`);
    return encodeURIComponent(String(params[name]));
  });

/** The row's body as documented: its fixed field and every field it lists, with the scenario's values. */
function bodyOf(row: Row, scenario: Scenario): Body | null {
  const listed = new Set(row.fields.map((f) => f.name));
  const unlisted = Object.keys(scenario.values ?? {}).filter((name) => !listed.has(name));
  expect(unlisted, `${row.request}: fields its scenario needs that the docs do not list`).toEqual([]);
  if (row.fields.length === 0 && !row.fixed) return null;
  const out: Body = {};
  if (row.fixed) out[row.fixed[0]] = row.fixed[1];
  for (const { name } of row.fields) {
    const value = scenario.values && name in scenario.values ? scenario.values[name] : DEFAULTS[name]?.();
    if (value === undefined) throw new Error(`${row.request}: no value for the field ${name} (give one in its scenario or DEFAULTS)`);
    out[fill(name, scenario.params ?? {})] = value;
  }
  return out;
}

function authOf(row: Row, scenario: Scenario): Auth {
  if (scenario.auth) return scenario.auth;
  if (row.who === "staff") return staff;
  if (row.who === "customer") return isJsonPath(row.path) ? shopper.token : shopper.cookie;
  return {};
}

beforeAll(async () => {
  await ready;
  staff = { Cookie: mergeCookies([await grantAdmin(getRequest("/"))]) };
  ITEM_ID = await createTestItem(ITEM_SLUG, { price: 3000, stock: 100_000 });
  VARIANT_ID = await defaultVariantId(ITEM_ID);
  categoryIds = (await db.selectFrom("categories").select("id").orderBy("id").limit(2).execute()).map((c) => c.id);
  shopper = await newShopper();
  expectSuccess(
    await send("POST", "/admin/coupons", { intent: "create", code: COUPON, kind: "percent", value: 10 }, staff),
    "the shared coupon",
  );
});

describe("docs/api.md's request tables", () => {
  it("name every row once, each with a scenario here (and no scenario without its row)", () => {
    expect(ROWS.length).toBeGreaterThan(60);
    const names = ROWS.map((r) => r.request);
    expect(
      names.filter((n, i) => names.indexOf(n) !== i),
      "rows named twice",
    ).toEqual([]);
    expect(
      names.filter((n) => !(n in SCENARIOS)),
      "rows without a scenario",
    ).toEqual([]);
    expect(
      Object.keys(SCENARIOS).filter((n) => !names.includes(n)),
      "scenarios of rows the docs no longer have",
    ).toEqual([]);
  });

  for (const row of ROWS) {
    it(`${row.request} (${row.who}): accepted as documented${row.who === "staff" ? "; a field more is refused" : ""}`, async () => {
      const scenario = await SCENARIOS[row.request]!();
      const url = fill(row.path, scenario.params ?? {});
      const documented = bodyOf(row, scenario);
      const auth = authOf(row, scenario);
      if (row.who === "staff") {
        const refused = await send(row.method, url, { ...documented, unknownField: "1" }, auth, scenario.signed);
        expect(refused.status, JSON.stringify(refused.body)).toBe(400);
        expect(JSON.stringify(refused.body)).toContain("Unknown field: unknownField");
      }
      expectSuccess(await send(row.method, url, documented, auth, scenario.signed), row.request);
    });
  }
});

describe("every route module that takes a write", () => {
  it("is in a request table of docs/api.md", async () => {
    const documented = new Set<string>();
    for (const row of ROWS) documented.add((await routeFor(row.path.replace(/\{\w+\}/g, "1"))).file);
    const undocumented: string[] = [];
    for (const route of Object.values(manifest)) {
      const source = fs.readFileSync(path.join(APP, route.file), "utf8");
      if (!/export (const|async function|function) action\b/.test(source)) continue;
      // The methods a path does not serve answer 403 or 405 through these: no write. The API's splat
      // route hands each request to its endpoint's module, checked here as a route module of its own.
      if (/export const action = (otherMethods|adminOtherMethods|notFound|answerApi)\b/.test(source)) continue;
      if (!documented.has(route.file)) undocumented.push(route.file);
    }
    expect(undocumented).toEqual([]);
  });
});
