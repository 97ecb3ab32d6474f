// Decisions taken on the absence of a row another request may be writing at that moment. Each
// case forces the interleaving on PostgreSQL (a second connection holds the row lock the requests
// meet, they queue behind it in a set order, then it lets go: tests/support/pg-locks.ts); on
// SQLite the same calls run at once. Either way the outcome must be one a serial order allows.
import crypto from "node:crypto";
import type { KyselyPlugin } from "kysely";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import type { Db } from "~/lib/db.server";
import { createDb, db, nowIso } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { isAppError } from "~/lib/errors.server";
import { offlinePayment } from "~/lib/payments.server";
import { issueResetToken, LIVE_RESET_LINKS } from "~/lib/one-time-codes.server";
import { hashPassword } from "~/lib/password.server";
import { CATEGORY_GAINED_PRODUCT, CATEGORY_IN_USE, createCategory, deleteCategory } from "~/models/catalogue/admin-categories.server";
import { createProduct, updateProduct } from "~/models/catalogue/admin-products.server";
import { insertProduct } from "~/models/catalogue/product-writes.server";
import { IMPORT_RACE, importProductsCsv } from "~/models/catalogue/csv-import.server";
import { deleteUserByAdmin, USER_HAS_PAYMENT } from "~/models/users/admin.server";
import { handleRefundWebhook } from "~/models/refunds/webhook.server";
import { createTestCoupon } from "../support/coupons";
import { imageStore } from "~/lib/image-store.server";
import { UPLOAD_GONE } from "~/lib/uploads.server";
import type { ProductInput } from "~/utils/admin-schemas";
import { changePassword, requestPasswordReset, resetPassword } from "~/models/users/password.server";
import * as cartAdd from "~/routes/api.cart.add";
import * as apiLogin from "~/routes/api.user.auth.login";
import * as pageLogin from "~/routes/login";
import * as createOrder from "~/routes/rzp.create-order";
import * as verifyRoute from "~/routes/rzp.verify-payment";
import { lockHolder, queuedBehind, untilWaiting } from "../support/pg-locks";
import { formRequest, jsonRequest } from "../support/requests";
import { asRecord, call, cookieJar } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, directCustomer, itemMaker, PASSWORD } from "../support/orders";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

const item = itemMaker("absence");
let holder: pg.Client | null = null;

beforeAll(async () => {
  await ready;
  holder = await lockHolder();
});

afterAll(async () => {
  await holder?.end();
});

/** A settled call's outcome as a status: its own, an AppError's, or 500 for any other failure. */
function statusOf(result: PromiseSettledResult<unknown>, ok = 200): number {
  if (result.status === "fulfilled") {
    const value = result.value as { status?: number } | undefined;
    return typeof value?.status === "number" ? value.status : ok;
  }
  return isAppError(result.reason) ? result.reason.status : 500;
}

const userExists = async (id: number) => Boolean(await db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst());

describe("deleting a customer while a payment is on its way", () => {
  const startPayment = (buyer: Customer) => call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, buyer.auth));

  it("refuses while a payment is paid with no order, or being paid (a live hold), and keeps the payment's customer", async () => {
    const buyer = await directCustomer("delete-paid");
    await addToCart(buyer, await item("paid", 2500, 5), 1);
    const created = await startPayment(buyer);
    expect(created.status).toBe(200);
    const paymentOrderId = (asRecord(created.body) as { id: string }).id;
    // Being paid: its units are held.
    await expect(deleteUserByAdmin(buyer.user.id, BUILTIN_OWNER)).rejects.toMatchObject({ status: 409, message: USER_HAS_PAYMENT });
    const paid = offlinePayment(paymentOrderId);
    const proof = { razorpay_order_id: paymentOrderId, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
    expect((await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, buyer.auth))).status).toBe(200);
    // Paid, its hold ended, no order yet.
    await db.deleteFrom("stockReservations").where("paymentOrderId", "=", paymentOrderId).execute();
    await expect(deleteUserByAdmin(buyer.user.id, BUILTIN_OWNER)).rejects.toMatchObject({ status: 409, message: USER_HAS_PAYMENT });
    const row = await db.selectFrom("paymentOrders").select("userId").where("id", "=", paymentOrderId).executeTakeFirstOrThrow();
    expect(row.userId).toBe(buyer.user.id);
    // A payment that ended unpaid (no hold left) does not keep the account.
    const other = await directCustomer("delete-unpaid");
    await addToCart(other, await item("unpaid", 2500, 5), 1);
    const unpaid = (asRecord((await startPayment(other)).body) as { id: string }).id;
    await db.deleteFrom("stockReservations").where("paymentOrderId", "=", unpaid).execute();
    await deleteUserByAdmin(other.user.id, BUILTIN_OWNER);
    expect(await userExists(other.user.id)).toBe(false);
  });

  it(
    "a payment started while the delete runs: one of them wins, the other is refused with a 4xx, never a 500",
    { timeout: 60_000 },
    async () => {
      for (const first of ["payment", "delete"] as const) {
        for (let round = 0; round < 5; round++) {
          const buyer = await directCustomer(`delete-race-${first}-${round}`);
          await addToCart(buyer, await item("race", 2500, 5), 1);
          const cart = await db.selectFrom("carts").select("id").where("userId", "=", buyer.user.id).executeTakeFirstOrThrow();
          const pay = () => startPayment(buyer);
          const remove = () => deleteUserByAdmin(buyer.user.id, BUILTIN_OWNER);
          const steps: (() => Promise<unknown>)[] = first === "payment" ? [pay, remove] : [remove, pay];
          // The customer's cart row: the payment locks it first; so must the delete.
          const results = holder
            ? await queuedBehind(holder, { sql: "select id from carts where id = $1 for update", params: [cart.id] }, steps)
            : await Promise.allSettled(steps.map((step) => step()));
          const [payment, deletion] = first === "payment" ? results : [results[1]!, results[0]!];
          const paymentStatus = statusOf(payment!);
          const deleteStatus = statusOf(deletion!);
          const payments = await db.selectFrom("paymentOrders").select(["userId"]).where("userId", "=", buyer.user.id).execute();
          const label = `${first} first, round ${round}: payment ${paymentStatus}, delete ${deleteStatus}`;
          if (await userExists(buyer.user.id)) {
            // The payment won: the delete was refused, the payment keeps its customer.
            expect([paymentStatus, deleteStatus], label).toEqual([200, 409]);
            expect(payments, label).toHaveLength(1);
          } else {
            // The delete won: the payment was refused before anything was made for the account.
            expect(deleteStatus, label).toBe(200);
            expect(paymentStatus, label).toBeGreaterThanOrEqual(400);
            expect(paymentStatus, label).toBeLessThan(500);
          }
          if (holder) expect(first === "payment" ? paymentStatus : deleteStatus, label).toBe(200);
        }
      }
    },
  );
});

describe("a login that checked the old password, against a password change or reset", () => {
  const NEW_PASSWORD = "another-secret-34";
  /**
   * A guest's cookie whose session names a cart of its own, and that cart's id: the sign-in merges
   * it, so holding its row pauses the login after its password check.
   */
  async function guestWithCart(): Promise<{ cookie: string; cartId: string }> {
    const piece = await item("guest", 1200, 50);
    const added = await call(cartAdd.action, jsonRequest("POST", "/api/cart/add", { itemId: piece, quantity: 1 }));
    expect(added.status).toBe(200);
    const line = await db.selectFrom("cartLines").select("cartId").where("itemId", "=", piece).executeTakeFirstOrThrow();
    return { cookie: cookieJar(added), cartId: line.cartId };
  }

  /** What any sign-in of the account still has: live sessions and live API tokens. */
  async function liveSignIns(userId: number) {
    const sessions = await db.selectFrom("sessions").select("id").where("userId", "=", userId).execute();
    const tokens = await db.selectFrom("apiTokens").select("id").where("userId", "=", userId).where("revokedAt", "is", null).execute();
    return sessions.length + tokens.length;
  }

  const cases = [
    {
      name: "a page login (session) against a password change",
      login: (email: string, cookie: string) =>
        call(pageLogin.action, formRequest("/login", { email, password: PASSWORD, redirectTo: "/profile" }, { Cookie: cookie })),
      change: async (userId: number) => changePassword(userId, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, undefined),
    },
    {
      name: "an API login (token) against a password reset",
      login: (email: string, cookie: string) =>
        call(apiLogin.action, jsonRequest("POST", "/api/user/auth/login", { email, password: PASSWORD }, { Cookie: cookie })),
      change: async (_userId: number, email: string) => {
        const token = await issueResetToken(db, email);
        await resetPassword(token, NEW_PASSWORD, { ip: "203.0.113.7" });
      },
    },
  ];

  for (const { name, login, change } of cases) {
    it(`${name}: no session or token made with the old password outlives the change`, { timeout: 60_000 }, async () => {
      const hash = await hashPassword(PASSWORD);
      for (let round = 0; round < 3; round++) {
        const buyer = await directCustomer(`login-race-${round}`, hash);
        // The account's own cart, so the sign-in merges into a row that exists.
        await addToCart(buyer, await item("own", 900, 50), 1);
        await db.updateTable("apiTokens").set({ revokedAt: nowIso() }).where("userId", "=", buyer.user.id).execute();
        const guest = await guestWithCart();
        const steps: (() => Promise<unknown>)[] = [() => login(buyer.email, guest.cookie), () => change(buyer.user.id, buyer.email)];
        // The login checks the old password, then waits on the guest cart's row; the change runs to its end meanwhile.
        const [signedIn, changed] = holder
          ? await queuedBehind(holder, { sql: "select id from carts where id = $1 for update", params: [guest.cartId] }, steps)
          : await Promise.allSettled(steps.map((step) => step()));
        expect(changed!.status, `round ${round}`).toBe("fulfilled");
        const label = `round ${round}: login answered ${statusOf(signedIn!)}`;
        expect(await liveSignIns(buyer.user.id), label).toBe(0);
        if (holder) expect(statusOf(signedIn!), label).toBe(401);
      }
    });
  }
});

describe("password reset requests at once", () => {
  it(`never leave more than ${LIVE_RESET_LINKS} live links`, { timeout: 60_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const account = await directCustomer(`reset-race-${round}`);
      for (let i = 0; i < LIVE_RESET_LINKS; i++) await issueResetToken(db, account.email);
      const links = () =>
        db
          .selectFrom("oneTimeCodes")
          .select("id")
          .where("email", "=", account.email)
          .where("purpose", "=", "password_reset")
          .orderBy("id")
          .execute();
      const oldest = (await links())[0]!.id;
      const steps = [1, 2, 3].map((n) => () => requestPasswordReset(account.email, "http://localhost:3000", { ip: `203.0.113.${n}` }));
      // Each request ends the oldest link: held, so all three have read the others' links before any writes.
      const results = holder
        ? await queuedBehind(holder, { sql: "select id from one_time_codes where id = $1 for update", params: [oldest] }, steps)
        : await Promise.allSettled(steps.map((step) => step()));
      for (const result of results) expect(result.status).toBe("fulfilled");
      expect((await links()).length, `round ${round}`).toBe(LIVE_RESET_LINKS);
    }
  });
});

describe("a refund webhook while the gateway's answer is being recorded", () => {
  let other: Db;
  beforeAll(() => {
    // Another server on the same database: its writes go through a connection of their own.
    other = createDb(env.DATABASE_URL);
  });
  afterAll(async () => {
    await other.destroy();
  });

  /** A paid payment order and its pending refund, sent but not answered yet (no gateway id). */
  async function pendingRefund() {
    const tag = crypto.randomBytes(5).toString("hex");
    const now = nowIso();
    const paymentOrderId = `order_abs${tag}`;
    const paymentId = `pay_abs${tag}`;
    await db
      .insertInto("paymentOrders")
      .values({
        id: paymentOrderId,
        userId: null,
        amountPaise: 150_000,
        currency: "INR",
        status: "paid",
        paymentId,
        checkout: null,
        failure: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const row = await db
      .insertInto("refunds")
      .values({
        paymentOrderId,
        paymentId,
        orderId: null,
        amount: 1500,
        reason: "unplaced",
        idempotencyKey: `unplaced:${paymentOrderId}`,
        gatewayKey: `key-${tag}`,
        status: "pending",
        gatewayRefundId: null,
        failureReason: null,
        sendingUntil: null,
        actor: "system",
        actorUserId: null,
        createdAt: now,
        updatedAt: now,
      })
      .returning(["id", "gatewayKey", "paymentId"])
      .executeTakeFirstOrThrow();
    return { ...row, gatewayRefundId: `rfnd_abs${tag}` };
  }

  it("is applied to the refund even when its gateway id is recorded right after the webhook's first read", async () => {
    const refund = await pendingRefund();
    const event = {
      event: "refund.processed",
      payload: {
        refund: {
          entity: {
            id: refund.gatewayRefundId,
            payment_id: refund.paymentId,
            status: "processed",
            notes: { shop_refund_key: refund.gatewayKey },
          },
        },
      },
    };
    // Right after the webhook's first statement answers, the sender records the gateway's answer (its id) on another connection.
    let recorded = false;
    const recordAnswer: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (!recorded) {
          recorded = true;
          await other.updateTable("refunds").set({ gatewayRefundId: refund.gatewayRefundId }).where("id", "=", refund.id).execute();
        }
        return args.result;
      },
    };
    await handleRefundWebhook(event, db.withPlugin(recordAnswer));
    expect(recorded).toBe(true);
    const row = await db.selectFrom("refunds").select(["status", "gatewayRefundId"]).where("id", "=", refund.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "processed", gatewayRefundId: refund.gatewayRefundId });
  });
});

describe("an uploaded image dropped while another save points a product at it", () => {
  // A real 1×1 PNG.
  const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

  async function product(title: string, imgPath: string, withUpload: boolean) {
    const categoryId = (await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow()).id;
    const name = `${crypto.randomBytes(16).toString("hex")}.png`;
    const input: ProductInput = {
      title,
      categoryId,
      price: 4999,
      featured: false,
      madeToOrder: false,
      description: "A piece for the upload race.",
      imgPath: withUpload ? `/uploads/${name}` : imgPath,
      specifications: {},
      inStock: true,
      stock: 3,
    };
    const upload = withUpload ? { name, type: "image/png", bytes: new Uint8Array(PNG), path: `/uploads/${name}` } : null;
    return { input, item: await createProduct({ ...input, upload }, BUILTIN_OWNER) };
  }

  it("never leaves a product showing an image that was deleted", { timeout: 60_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const shown = await product(`Upload race shown ${round}`, "", true);
      const image = shown.item.imgPath;
      const other = await product(`Upload race other ${round}`, "/images/products/sofa.svg", false);
      const edit = (input: ProductInput, version: number, imgPath: string) => {
        const { inStock: _, stock: __, ...details } = input;
        return { ...details, imgPath, stock: null, version, upload: null };
      };
      // The first product lets go of the image (which is then deleted, nothing else showing it);
      // the second is pointed at it.
      const steps: (() => Promise<unknown>)[] = [
        () => updateProduct(shown.item.id, edit(shown.input, shown.item.version, "/images/products/sofa.svg"), BUILTIN_OWNER),
        () => updateProduct(other.item.id, edit(other.input, other.item.version, image), BUILTIN_OWNER),
      ];
      const name = image.slice("/uploads/".length);
      // The image's row (the database store): the drop deletes it; the save, since the fix, holds it.
      const results = holder
        ? await queuedBehind(holder, { sql: "select name from uploads where name = $1 for update", params: [name] }, steps)
        : await Promise.allSettled(steps.map((step) => step()));
      expect(results[0]!.status, `round ${round}`).toBe("fulfilled");
      const exists = (await imageStore.get(name)) !== null;
      const showing = await db.selectFrom("items").select("id").where("imgPath", "=", image).execute();
      const label = `round ${round}: image ${exists ? "kept" : "deleted"}, save ${statusOf(results[1]!)}`;
      if (!exists) {
        expect(showing, label).toEqual([]);
        expect(results[1], label).toMatchObject({ status: "rejected", reason: { status: 400, message: UPLOAD_GONE } });
      } else {
        expect(
          showing.map((r) => r.id),
          label,
        ).toEqual([other.item.id]);
      }
      if (holder) expect(exists, label).toBe(false);
    }
  });
});

describe("a guest's cart adopted at sign-in while a line is being added to it", () => {
  it("keeps the line the add answered for", { timeout: 60_000 }, async () => {
    const hash = await hashPassword(PASSWORD);
    for (let round = 0; round < 3; round++) {
      const buyer = await directCustomer(`adopt-race-${round}`, hash);
      const first = await item("adopt-first", 1500, 50);
      const added = await call(cartAdd.action, jsonRequest("POST", "/api/cart/add", { itemId: first, quantity: 1 }));
      expect(added.status).toBe(200);
      const cookie = cookieJar(added);
      const guestCart = (await db.selectFrom("cartLines").select("cartId").where("itemId", "=", first).executeTakeFirstOrThrow()).cartId;
      const late = await item("adopt-late", 1700, 50);
      const steps: (() => Promise<unknown>)[] = [
        // Another tab adds a second piece to the guest cart; this tab signs in.
        () => call(cartAdd.action, jsonRequest("POST", "/api/cart/add", { itemId: late, quantity: 2 }, { Cookie: cookie })),
        () =>
          call(
            apiLogin.action,
            jsonRequest("POST", "/api/user/auth/login", { email: buyer.email, password: PASSWORD }, { Cookie: cookie }),
          ),
      ];
      const [add, login] = holder
        ? await queuedBehind(holder, { sql: "select id from carts where id = $1 for update", params: [guestCart] }, steps)
        : await Promise.allSettled(steps.map((step) => step()));
      const label = `round ${round}: add ${statusOf(add!)}, login ${statusOf(login!)}`;
      expect(statusOf(login!), label).toBe(200);
      const lines = await db
        .selectFrom("cartLines")
        .innerJoin("carts", "carts.id", "cartLines.cartId")
        .select(["cartLines.itemId", "cartLines.quantity"])
        .where("carts.userId", "=", buyer.user.id)
        .orderBy("cartLines.itemId")
        .execute();
      const expected =
        statusOf(add!) === 200
          ? [
              { itemId: first, quantity: 1 },
              { itemId: late, quantity: 2 },
            ]
          : [{ itemId: first, quantity: 1 }];
      expect(lines, label).toEqual(expected);
      if (holder) expect(statusOf(add!), label).toBe(200);
    }
  });
});

describe("a CSV import creating a slug that a product takes meanwhile", () => {
  it("is refused whole (409), never duplicating the product under another slug", { timeout: 60_000 }, async () => {
    const category = await db.selectFrom("categories").select(["id", "slug"]).orderBy("id").executeTakeFirstOrThrow();
    for (let round = 0; round < 3; round++) {
      const tag = crypto.randomBytes(4).toString("hex");
      const slug = `csv-race-${tag}`;
      const title = `Csv Race Import ${tag}`;
      const existing = await product(`Csv race existing ${tag}`);
      const csv = [
        "slug,title,category,price,description,imgPath,version",
        // An edit of an existing product (its row's lock is where the import waits on PostgreSQL), then a new product by slug.
        [existing.slug, existing.title, category.slug, existing.price + 1, existing.description, existing.imgPath, existing.version].join(
          ",",
        ),
        `${slug},${title},${category.slug},2999,Made by the import.,/images/products/sofa.svg,`,
      ].join("\n");
      const rival = async () => {
        // The same slug, made by another admin's save (the slug given: as another import would).
        await db.transaction().execute((trx) =>
          insertProduct(
            trx,
            {
              title: `Csv Race Rival ${tag}`,
              categoryId: category.id,
              price: 1999,
              featured: false,
              madeToOrder: false,
              description: "Made by the rival.",
              imgPath: "/images/products/sofa.svg",
              specifications: {},
              inStock: true,
              stock: 1,
            },
            BUILTIN_OWNER,
            slug,
          ),
        );
      };
      let result: PromiseSettledResult<unknown>;
      if (holder) {
        // The import has planned (no product has the slug) and waits in its transaction; the rival commits meanwhile.
        await holder.query("begin");
        await holder.query("select id from items where id = $1 for update", [existing.id]);
        const running = importProductsCsv(csv, BUILTIN_OWNER).then(
          (value) => ({ status: "fulfilled" as const, value }),
          (reason: unknown) => ({ status: "rejected" as const, reason }),
        );
        await untilWaiting(holder, 1);
        await rival();
        await holder.query("commit");
        result = await running;
      } else {
        [result] = await Promise.allSettled([importProductsCsv(csv, BUILTIN_OWNER), rival().catch(() => undefined)]);
      }
      const imported = await db.selectFrom("items").select(["slug"]).where("title", "=", title).execute();
      const label = `round ${round}: import ${statusOf(result!)}`;
      // Never the import's product under a slug of its own while another product holds the file's slug.
      expect(
        imported.filter((r) => r.slug !== slug),
        label,
      ).toEqual([]);
      if (result!.status === "rejected") {
        expect(result!.reason, label).toMatchObject({ status: 409, message: IMPORT_RACE });
        const after = await db.selectFrom("items").select("price").where("id", "=", existing.id).executeTakeFirstOrThrow();
        expect(after.price, `${label}: nothing written`).toBe(existing.price);
      }
      if (holder) expect(statusOf(result!), label).toBe(409);
    }
  });

  async function product(title: string) {
    const categoryId = (await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow()).id;
    return createProduct(
      {
        title,
        categoryId,
        price: 4999,
        featured: false,
        madeToOrder: false,
        description: "A piece for the import race.",
        imgPath: "/images/products/sofa.svg",
        specifications: {},
        inStock: true,
        stock: 3,
        upload: null,
      },
      BUILTIN_OWNER,
    );
  }
});

describe("a category deleted while a product or coupon is saved into it", () => {
  const category = async (tag: string) =>
    (
      await createCategory(
        {
          title: `Fk race ${tag} ${crypto.randomBytes(3).toString("hex")}`,
          description: "For the race.",
          imgPath: "/images/products/sofa.svg",
          upload: null,
        },
        BUILTIN_OWNER,
      )
    ).id;
  const productIn = (categoryId: number, tag: string) =>
    createProduct(
      {
        title: `Fk race piece ${tag} ${crypto.randomBytes(3).toString("hex")}`,
        categoryId,
        price: 999,
        featured: false,
        madeToOrder: false,
        description: "A piece for the category race.",
        imgPath: "/images/products/sofa.svg",
        specifications: {},
        inStock: true,
        stock: 1,
        upload: null,
      },
      BUILTIN_OWNER,
    );
  const couponIn = (categoryId: number) =>
    createTestCoupon(`FK${crypto.randomBytes(4).toString("hex").toUpperCase()}`, { categoryIds: [categoryId] });

  it("a delete that meets a product saved meanwhile is a 409 in words, not a 500", async () => {
    const id = await category("delete");
    if (holder) {
      // A product being saved into the category: its insert holds the category's key.
      const [deleted] = await queuedBehind(
        holder,
        {
          sql: `insert into items (category_id, title, slug, description, price, img_path, created_at, updated_at)
                values ($1, 'Fk race held', $2, 'Held.', 100, '/images/products/sofa.svg', $3, $3)`,
          params: [id, `fk-race-held-${id}`, nowIso()],
        },
        [() => deleteCategory(id, BUILTIN_OWNER)],
      );
      expect(deleted).toMatchObject({ status: "rejected", reason: { status: 409, message: CATEGORY_GAINED_PRODUCT } });
    } else {
      const [saved, deleted] = await Promise.allSettled([productIn(id, "delete"), deleteCategory(id, BUILTIN_OWNER)]);
      if (saved.status === "fulfilled")
        expect(deleted).toMatchObject({ status: "rejected", reason: { status: 409, message: CATEGORY_IN_USE(1) } });
      else expect(saved.reason).toMatchObject({ status: 400, fieldErrors: { categoryId: "Please choose a category" } });
    }
    const left = await db.selectFrom("categories").select("id").where("id", "=", id).executeTakeFirst();
    expect(left).toBeDefined();
  });

  it("a product or coupon saved into a category being deleted is refused (400 on the field), not a 500", async () => {
    for (const save of ["product", "coupon"] as const) {
      const id = await category(save);
      const step = (): Promise<unknown> => (save === "product" ? productIn(id, "save") : couponIn(id));
      const [saved] = holder
        ? await queuedBehind(holder, { sql: "delete from categories where id = $1", params: [id] }, [step])
        : await Promise.allSettled([step(), deleteCategory(id, BUILTIN_OWNER)]);
      const field =
        save === "product"
          ? { categoryId: "Please choose a category" }
          : { categoryIds: "A chosen category no longer exists. Reload the form." };
      if (holder || saved!.status === "rejected")
        expect(saved, save).toMatchObject({ status: "rejected", reason: { status: 400, fieldErrors: field } });
    }
  });
});
