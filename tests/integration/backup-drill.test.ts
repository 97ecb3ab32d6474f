// The restore drill (ADR 0029, docs/operations.md "Backups"): a shop takes orders (cash and paid
// online), refunds one, gets a review and uploaded images, all through the real modules; a backup
// is made; more happens; the backup is restored into a fresh database and data folder. The first
// set is all there, row for row and image for image (by their sha256), the later set is not, and
// the shop starts on the restored database and serves its pages, to a customer whose session was
// signed before the backup (the secrets came back too). Runs on SQLite (the images as files) and
// on PostgreSQL (the images as rows; scripts/test-pg.sh).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BackupMade, ShopStorage } from "~/lib/backup/backup.server";
import { createBackup, restoreBackup, shopStorage } from "~/lib/backup/backup.server";
import { ready } from "~/lib/boot.server";
import type { Db } from "~/lib/db.server";
import { createDb, db } from "~/lib/db.server";
import { imageStore } from "~/lib/image-store.server";
import { offlinePayment } from "~/lib/payments.server";
import { forget, remember } from "~/lib/remember.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { saveReview } from "~/models/reviews/write.server";
import * as productsPage from "~/routes/admin.products";
import * as changeStatus from "~/routes/api.orders_.changeStatus";
import * as login from "~/routes/login";
import * as createOrder from "~/routes/rzp.create-order";
import { grantAdmin } from "~/web/sign-in.server";
import { backupDir, newShop, sha256 } from "../support/backups";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, itemMaker, newCustomer, PASSWORD, placeViaApi } from "../support/orders";
import { formRequest, getRequest, jsonRequest, mergeCookies, multipartRequest } from "../support/requests";
import { asRecord, call, cookieJar } from "../support/route-calls";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

const ADMIN = { actor: "admin" as const, userId: null, staff: BUILTIN_OWNER };
const item = itemMaker("drill");
const original = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };

/** A real 1×1 PNG with one byte of its own (the colour), so each upload's bytes differ. */
function png(shade: number): File {
  const bytes = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
  bytes[bytes.length - 20] = shade;
  return new File([bytes], "photo.png", { type: "image/png" });
}

interface Made {
  customer: Customer;
  browser: string;
  orders: number[];
  paymentOrders: string[];
  products: number[];
  /** image name → sha256 of its bytes */
  images: Map<string, string>;
}

let admin = "";

/**
 * One round of a shop's business: a delivered cash order with its review, an online order paid then
 * cancelled (refunded), a new product with an uploaded image.
 */
async function doBusiness(tag: string, shade: number): Promise<Made> {
  const customer = await newCustomer(tag);
  const browser = cookieJar(await call(login.action, formRequest("/login", { email: customer.email, password: PASSWORD })));
  const sofa = await item(`${tag}-sofa`, 21000, 10);
  await addToCart(customer, sofa, 2);
  const cash = asRecord((await placeViaApi(customer, checkoutFields())).body) as { id: number };
  await changeOrderStatus(cash.id, "shipped", ADMIN);
  await changeOrderStatus(cash.id, "delivered", ADMIN);
  await saveReview(customer.user.id, { itemId: sofa, rating: 4, title: `Sturdy (${tag})`, body: "Solid wood, arrived on time." });

  await addToCart(customer, await item(`${tag}-desk`, 8000, 5), 1);
  const payment = asRecord((await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth))).body) as {
    id: string;
  };
  const paid = offlinePayment(payment.id);
  const proof = { razorpay_order_id: payment.id, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
  const online = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
  expect(online.status).toBe(201);
  const onlineId = (asRecord(online.body) as { id: number }).id;
  const cancel = jsonRequest("PUT", "/api/orders/changeStatus", { orderId: onlineId, status: "cancelled" }, customer.auth);
  expect((await call(changeStatus.action, cancel)).status).toBe(200);

  const category = await db.selectFrom("categories").select("id").where("slug", "=", "outdoor").executeTakeFirstOrThrow();
  const title = `Drill Bench ${tag}`;
  const form = {
    intent: "create",
    title,
    categoryId: String(category.id),
    price: "12999",
    imgPath: "",
    description: "A bench made for the restore drill.",
    inStock: "on",
    stock: "5",
    imageFile: png(shade),
  };
  const saved = await call(productsPage.action, await multipartRequest("/admin/products?new=1", form, { Cookie: admin }));
  expect(saved.status).toBe(302);
  const product = await db.selectFrom("items").select(["id", "imgPath"]).where("title", "=", title).executeTakeFirstOrThrow();
  const name = product.imgPath.slice("/uploads/".length);
  const image = await imageStore.get(name);
  expect(image).not.toBeNull();
  return {
    customer,
    browser,
    orders: [cash.id, onlineId],
    paymentOrders: [payment.id],
    products: [sofa, product.id],
    images: new Map([[name, sha256(image!.bytes)]]),
  };
}

/** Every row the round wrote that a restore must bring back as it was. */
async function rowsOf(source: Db, made: Made) {
  const orders = made.orders;
  return {
    users: await source.selectFrom("users").selectAll().where("id", "=", made.customer.user.id).execute(),
    orders: await source.selectFrom("orders").selectAll().where("id", "in", orders).orderBy("id").execute(),
    orderItems: await source.selectFrom("orderItems").selectAll().where("orderId", "in", orders).orderBy("id").execute(),
    orderEvents: await source.selectFrom("orderEvents").selectAll().where("orderId", "in", orders).orderBy("id").execute(),
    paymentOrders: await source.selectFrom("paymentOrders").selectAll().where("id", "in", made.paymentOrders).execute(),
    refunds: await source.selectFrom("refunds").selectAll().where("orderId", "in", orders).orderBy("id").execute(),
    reviews: await source.selectFrom("reviews").selectAll().where("userId", "=", made.customer.user.id).orderBy("id").execute(),
    items: await source.selectFrom("items").selectAll().where("id", "in", made.products).orderBy("id").execute(),
  };
}

/** The restored shop's copy of an image: the file in its data folder (disk store) or its row (database store). */
async function restoredImage(target: ShopStorage, restored: Db, name: string): Promise<string | null> {
  if (target.imageStore === "disk") {
    const file = path.join(target.dataDir, "uploads", name);
    return fs.existsSync(file) ? sha256(fs.readFileSync(file)) : null;
  }
  const row = await restored.selectFrom("uploads").select("bytes").where("name", "=", name).executeTakeFirst();
  return row ? sha256(row.bytes) : null;
}

async function closeProcessDb() {
  await remember<Db | null>("db", () => null)?.destroy();
  forget("db");
  forget("boot");
}

let first: Made;
let later: Made;
let before: Awaited<ReturnType<typeof rowsOf>>;
let backup: BackupMade;
let target: ShopStorage;

beforeAll(async () => {
  await ready;
  admin = mergeCookies([await grantAdmin(getRequest("/"))]);
  first = await doBusiness("first", 0x11);
  before = await rowsOf(db, first);
  backup = await createBackup(shopStorage(), backupDir("drill"));
  later = await doBusiness("later", 0x22);
  target = await newShop("drill");
  await restoreBackup(backup.file, target);
}, 60_000);

afterAll(async () => {
  await closeProcessDb();
  process.env.DATABASE_URL = original.DATABASE_URL;
  process.env.DATA_DIR = original.DATA_DIR;
  vi.resetModules();
});

describe("a restored backup", () => {
  it("names its time and migration level, and holds every image", () => {
    expect(path.basename(backup.file)).toMatch(/^shop-\d{4}-\d{2}-\d{2}T\d{6}Z-m\d{4}\.tar$/);
    expect(backup.images).toBe(target.imageStore === "disk" ? 1 : 0); // on PostgreSQL images are rows of the dump
  });

  it("brings back the first set row for row and image for image, and none of the later set", async () => {
    const restored = createDb(target.databaseUrl);
    try {
      expect(await rowsOf(restored, first)).toEqual(before);
      expect(before.refunds).toHaveLength(1);
      expect(before.reviews).toHaveLength(1);
      for (const [name, hash] of first.images) expect(await restoredImage(target, restored, name)).toBe(hash);

      const none = await rowsOf(restored, later);
      expect(none).toEqual({
        users: [],
        orders: [],
        orderItems: [],
        orderEvents: [],
        paymentOrders: [],
        refunds: [],
        reviews: [],
        items: [],
      });
      for (const name of later.images.keys()) expect(await restoredImage(target, restored, name)).toBeNull();
    } finally {
      await restored.destroy();
    }
  });

  it("is a shop that starts and serves its pages, to a customer signed in before the backup", async () => {
    await closeProcessDb();
    process.env.DATABASE_URL = target.databaseUrl;
    process.env.DATA_DIR = target.dataDir;
    vi.resetModules();
    await (
      await import("~/lib/boot.server")
    ).ready;

    const home = await import("~/routes/_index");
    const homePage = await call(home.loader, getRequest("/"));
    expect(homePage.status).toBe(200);
    expect((asRecord(homePage.body).featured as unknown[]).length).toBeGreaterThan(0);

    const [name, hash] = [...first.images][0]!;
    const benchSlug = before.items.find((row) => row.imgPath === `/uploads/${name}`)!.slug;
    const productPage = await import("~/routes/product.$slug");
    const product = await call(productPage.loader, getRequest(`/product/${benchSlug}`), { slug: benchSlug });
    expect(product.status).toBe(200);
    const uploads = await import("~/routes/uploads.$");
    const served = (await uploads.loader({ request: getRequest(`/uploads/${name}`), params: { "*": name }, context: {} })) as Response;
    expect(served.status).toBe(200);
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(hash);
    const laterName = [...later.images.keys()][0]!;
    const gone = (await uploads.loader({
      request: getRequest(`/uploads/${laterName}`),
      params: { "*": laterName },
      context: {},
    })) as Response;
    expect(gone.status).toBe(404);

    const orderPage = await import("~/routes/order-confirmation.$orderId");
    const [cashId, onlineId] = first.orders;
    const mine = await call(orderPage.loader, getRequest(`/order-confirmation/${cashId}`, { Cookie: first.browser }), {
      orderId: String(cashId),
    });
    expect(mine.status).toBe(200);
    expect(asRecord(asRecord(mine.body).order)).toMatchObject({ id: cashId, total: before.orders[0]!.total });

    const adminOrders = await import("~/routes/admin.orders");
    const listed = await call(adminOrders.loader, getRequest("/admin/orders", { Cookie: admin }));
    expect(listed.status).toBe(200);
    const ids = JSON.stringify(listed.body);
    for (const id of [cashId, onlineId]) expect(ids).toContain(`"id":${id}`);
    for (const id of later.orders) expect(ids).not.toContain(`"id":${id},`);
  });
});
