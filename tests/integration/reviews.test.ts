// Reviews from real buyers (ADR 0018): only a customer with a delivered line of the piece
// reviews it, once (a second submit edits), and edits it; helpful votes count once and never on
// one's own; the staff hide a review with a reason (it leaves the average, count and list, and the
// author is mailed) and show it again; a delivered order invites its customer by mail, once.
// Bad input: a clear 4xx and nothing written. Runs on SQLite and PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import * as m0020 from "../../migrations/2026-11-26-0020-reviews";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { settleMail } from "~/lib/mail.server";
import { getItemById } from "~/models/catalogue/products.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { listReviewsPage, moderateReview } from "~/models/reviews/admin.server";
import { markHelpful, saveReview } from "~/models/reviews/write.server";
import { productReviews } from "~/models/reviews/read.server";
import * as adminReviews from "~/routes/admin.reviews";
import * as reviewsApi from "~/routes/api.item.reviews";
import * as login from "~/routes/login";
import * as orderPage from "~/routes/order-confirmation.$orderId";
import * as productPage from "~/routes/product.$slug";
import * as reviewPage from "~/routes/product_.$slug.review";
import { grantAdmin } from "~/web/sign-in.server";
import { productJsonLd } from "~/utils/seo";
import { REVIEW_MESSAGES } from "~/utils/reviews";
import { adminWindow } from "../support/paging";
import { mailsTo } from "../support/outbox";
import { formRequest, getRequest, jsonRequest, mergeCookies } from "../support/requests";
import { asRecord, call, cookieJar, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, itemMaker, newCustomers, PASSWORD, placeViaApi } from "../support/orders";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

const item = itemMaker("rev");
const ADMIN = { actor: "admin" as const, userId: null, staff: BUILTIN_OWNER };

let buyer: Customer;
let waiting: Customer;
let stranger: Customer;
let voter: Customer;
let sofa: number;
let sofaSlug: string;
let buyerOrder: number;

async function order(customer: Customer, itemId: number, deliver: boolean): Promise<number> {
  await addToCart(customer, itemId, 1);
  const placed = await placeViaApi(customer, checkoutFields());
  expect(placed.status).toBe(201);
  const orderId = (asRecord(placed.body) as { id: number }).id;
  if (deliver) {
    await changeOrderStatus(orderId, "shipped", ADMIN);
    await changeOrderStatus(orderId, "delivered", ADMIN);
  }
  return orderId;
}

async function browserOf(customer: Customer): Promise<string> {
  return cookieJar(await call(login.action, formRequest("/login", { email: customer.email, password: PASSWORD })));
}

const reviewRows = (itemId: number) => db.selectFrom("reviews").selectAll().where("itemId", "=", itemId).orderBy("id").execute();
const sums = async (itemId: number) => {
  const found = await getItemById(itemId);
  return { averageRating: found!.averageRating, reviewCount: found!.reviewCount };
};

beforeAll(async () => {
  await ready;
  [buyer, waiting, stranger, voter] = await newCustomers("rev", 4);
  sofa = await item("sofa", 20000, 50);
  sofaSlug = (await getItemById(sofa))!.slug;
  buyerOrder = await order(buyer, sofa, true);
  await order(voter, sofa, true);
  await order(waiting, sofa, false); // processing: not received yet
});

describe("who may review", () => {
  it("the buyer of a delivered line writes once, then edits; not delivered, not the buyer, a guest: refused, nothing written", async () => {
    const cookies = { buyer: await browserOf(buyer), waiting: await browserOf(waiting), stranger: await browserOf(stranger) };
    const post = (cookie: string, fields: Record<string, string>) =>
      call(reviewPage.action, formRequest(`/product/${sofaSlug}/review`, { intent: "save", ...fields }, cookie ? { Cookie: cookie } : {}), {
        slug: sofaSlug,
      });
    const good = { rating: "4", title: "Solid teak", body: "Firm cushions, <b>lovely</b> grain." };

    // The page: the form for the buyer, a 403 with the reason for the others, the sign-in page for a guest.
    const own = await call(reviewPage.loader, getRequest(`/product/${sofaSlug}/review`, { Cookie: cookies.buyer }), { slug: sofaSlug });
    expect(own.status).toBe(200);
    expect(asRecord(own.body).viewer).toMatchObject({ canReview: true, own: null });
    const notYet = await call(reviewPage.loader, getRequest(`/product/${sofaSlug}/review`, { Cookie: cookies.waiting }), {
      slug: sofaSlug,
    });
    expect(notYet.status).toBe(403);

    for (const cookie of [cookies.waiting, cookies.stranger]) {
      const refused = await post(cookie, good);
      expect(refused.status).toBe(403);
      expect(asRecord(refused.body).formError).toBe(REVIEW_MESSAGES.notBuyer);
    }
    const guest = await post("", good);
    expect(guest.status).toBe(302);
    expect(guest.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    await expect(saveReview(stranger.user.id, { itemId: sofa, rating: 5, title: "x", body: "y" })).rejects.toMatchObject({ status: 403 });

    // Bad input: messages beside the fields, a 400, nothing written.
    const bad = await post(cookies.buyer, { rating: "6", title: " ", body: "x".repeat(2001) });
    expect(bad.status).toBe(400);
    expect(asRecord(bad.body).fieldErrors).toEqual({
      rating: REVIEW_MESSAGES.rating,
      title: REVIEW_MESSAGES.title,
      body: REVIEW_MESSAGES.body,
    });
    expect(await reviewRows(sofa)).toEqual([]);

    // Written: back to the product page; twice (a double submit) is still one review.
    const first = await post(cookies.buyer, good);
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe(`/product/${sofaSlug}#reviews`);
    await post(cookies.buyer, good);
    const rows = await reviewRows(sofa);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: buyer.user.id, rating: 4, title: "Solid teak", body: good.body, visible: 1 });
    expect(await sums(sofa)).toEqual({ averageRating: 4, reviewCount: 1 });

    // Two at once: one review.
    await Promise.all([
      saveReview(buyer.user.id, { itemId: sofa, rating: 2, title: "Race", body: "a" }),
      saveReview(buyer.user.id, { itemId: sofa, rating: 2, title: "Race", body: "b" }),
    ]);
    expect(await reviewRows(sofa)).toHaveLength(1);

    // Edited: the same review, the sums follow.
    const edit = await post(cookies.buyer, { rating: "5", title: "Even better after a month", body: "Still firm." });
    expect(edit.status).toBe(302);
    expect(await reviewRows(sofa)).toMatchObject([{ id: rows[0]!.id, rating: 5, title: "Even better after a month" }]);
    expect(await sums(sofa)).toEqual({ averageRating: 5, reviewCount: 1 });

    // The voter received it too: two reviews, the average of both.
    await saveReview(voter.user.id, { itemId: sofa, rating: 4, title: "Good", body: "Comfortable." });
    expect(await sums(sofa)).toEqual({ averageRating: 4.5, reviewCount: 2 });
    await settleMail();
  });

  it("the product page, its JSON-LD and the API show the average, count, histogram and reviews marked verified", async () => {
    const cookie = await browserOf(stranger);
    const page = asRecord(
      (await call(productPage.loader, getRequest(`/product/${sofaSlug}?reviews=helpful`, { Cookie: cookie }), { slug: sofaSlug })).body,
    );
    const reviews = page.reviews as {
      data: { averageRating: number; reviewCount: number; histogram: { rating: number; count: number }[]; reviews: unknown[] };
      viewer: { signedIn: boolean; canReview: boolean };
    };
    expect(reviews.data).toMatchObject({ averageRating: 4.5, reviewCount: 2 });
    expect(reviews.data.histogram).toEqual([
      { rating: 5, count: 1 },
      { rating: 4, count: 1 },
      { rating: 3, count: 0 },
      { rating: 2, count: 0 },
      { rating: 1, count: 0 },
    ]);
    expect(reviews.data.reviews).toHaveLength(2);
    expect(reviews.data.reviews.every((r) => (r as { verifiedPurchase: boolean }).verifiedPurchase)).toBe(true);
    expect(reviews.viewer).toMatchObject({ signedIn: true, canReview: false });

    const ld = productJsonLd("https://shop.example", (await getItemById(sofa))!, null) as Record<string, unknown>;
    expect(ld.aggregateRating).toEqual({
      "@type": "AggregateRating",
      ratingValue: "4.5",
      reviewCount: 2,
      bestRating: "5",
      worstRating: "1",
    });
    const unrated = await item("unrated", 1000, 1);
    expect(productJsonLd("https://shop.example", (await getItemById(unrated))!, null)).not.toHaveProperty("aggregateRating");

    const api = await call(reviewsApi.loader, getRequest(`/api/item/reviews?itemId=${sofa}&pageSize=1`));
    expect(api.status).toBe(200);
    expect(asRecord(api.body)).toMatchObject({ itemId: sofa, averageRating: 4.5, reviewCount: 2, total: 2, page: 1, pageSize: 1 });
    expect((asRecord(api.body).reviews as unknown[]).length).toBe(1);
    expectApiError(await call(reviewsApi.loader, getRequest("/api/item/reviews?itemId=abc")), 400);
    expectApiError(await call(reviewsApi.loader, getRequest(`/api/item/reviews?itemId=${sofa}&sort=best`)), 400);
    expectApiError(await call(reviewsApi.loader, getRequest("/api/item/reviews?itemId=2147483000")), 404);
  });
});

describe("helpful votes", () => {
  it("count once per customer, never on one's own review, and sort the list", async () => {
    const [buyerReview, voterReview] = await reviewRows(sofa);
    expect(await markHelpful(stranger.user.id, voterReview!.id)).toEqual({ counted: true, helpfulCount: 1 });
    expect(await markHelpful(stranger.user.id, voterReview!.id)).toEqual({ counted: false, helpfulCount: 1 });
    await expect(markHelpful(voter.user.id, voterReview!.id)).rejects.toMatchObject({ status: 403, message: REVIEW_MESSAGES.ownVote });

    // The page's form: a vote without JavaScript comes back to the list; a double post counts once.
    const cookie = await browserOf(waiting);
    const vote = () =>
      call(
        reviewPage.action,
        formRequest(
          `/product/${sofaSlug}/review`,
          { intent: "helpful", reviewId: String(voterReview!.id), redirectTo: `/product/${sofaSlug}` },
          { Cookie: cookie },
        ),
        { slug: sofaSlug },
      );
    expect((await vote()).status).toBe(302);
    expect((await vote()).status).toBe(302);
    expect((await reviewRows(sofa))[1]!.helpfulCount).toBe(2);
    const votes = await db.selectFrom("reviewVotes").select("userId").where("reviewId", "=", voterReview!.id).execute();
    expect(votes.map((v) => v.userId).sort()).toEqual([stranger.user.id, waiting.user.id].sort());

    const helpful = await productReviews(sofa, { sort: "helpful", page: 1 });
    expect(helpful.reviews.map((r) => r.id)).toEqual([voterReview!.id, buyerReview!.id]);
    const newest = await productReviews(sofa, { sort: "newest", page: 1 });
    expect(newest.reviews.map((r) => r.id)).toEqual([voterReview!.id, buyerReview!.id]);
    expect((await productReviews(sofa, { sort: "newest", page: 2 }, 1, db)).reviews.map((r) => r.id)).toEqual([buyerReview!.id]);
  });
});

describe("moderation", () => {
  it("staff hide with a reason (out of average, count and list; author mailed) and show again; audited; staff only", async () => {
    const [buyerReview] = await reviewRows(sofa);
    const adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
    const post = (fields: Record<string, string>, cookie = adminCookie) =>
      call(adminReviews.action, formRequest("/admin/reviews", fields, { Cookie: cookie }));

    const noReason = await post({ intent: "hide", reviewId: String(buyerReview!.id), reason: "  " });
    expect(noReason.status).toBe(400);
    expect(asRecord(asRecord(noReason.body).fieldErrors)).toEqual({ reason: REVIEW_MESSAGES.hiddenReason });
    const customerTry = await post({ intent: "hide", reviewId: String(buyerReview!.id), reason: "x" }, await browserOf(buyer)).catch(
      (e: unknown) => e,
    );
    expect((customerTry as { status: number }).status).toBe(403);
    expect((await reviewRows(sofa))[0]!.visible).toBe(1);

    const hidden = await post({ intent: "hide", reviewId: String(buyerReview!.id), reason: "Mentions a competitor's shop." });
    expect(hidden.status).toBe(302);
    expect(await sums(sofa)).toEqual({ averageRating: 4, reviewCount: 1 });
    const list = await productReviews(sofa, { sort: "newest", page: 1 });
    expect(list.reviews.map((r) => r.id)).not.toContain(buyerReview!.id);
    expect(list.histogram.find((h) => h.rating === 5)!.count).toBe(0);
    expect((await post({ intent: "hide", reviewId: String(buyerReview!.id), reason: "again" })).status).toBe(409);
    // A hidden review answers exactly as a missing one, so a review's id does not tell it is hidden.
    await expect(markHelpful(stranger.user.id, buyerReview!.id)).rejects.toMatchObject({ status: 404, message: REVIEW_MESSAGES.notFound });

    // The author may still edit it: it stays hidden and out of the sums.
    await saveReview(buyer.user.id, { itemId: sofa, rating: 1, title: "Edited", body: "Still." });
    expect(await sums(sofa)).toEqual({ averageRating: 4, reviewCount: 1 });

    const staffList = await listReviewsPage({ q: buyer.email.toUpperCase(), status: "hidden" }, adminWindow(1));
    expect(staffList.rows.map((r) => r.id)).toEqual([buyerReview!.id]);
    expect(staffList.rows[0]).toMatchObject({ visible: false, hiddenReason: "Mentions a competitor's shop." });
    const page = await call(adminReviews.loader, getRequest("/admin/reviews?status=odd", { Cookie: adminCookie }));
    expect(asRecord(page.body)).toMatchObject({ status: "all", error: null });
    expect((await call(adminReviews.loader, getRequest("/admin/reviews?page=x", { Cookie: adminCookie }))).status).toBe(404);

    await moderateReview(buyerReview!.id, { hide: false }, BUILTIN_OWNER);
    expect(await sums(sofa)).toEqual({ averageRating: 2.5, reviewCount: 2 });
    const audit = await db
      .selectFrom("auditLog")
      .select("summary")
      .where("entity", "=", "review")
      .where("entityId", "=", String(buyerReview!.id))
      .execute();
    expect(audit.map((a) => a.summary)).toEqual([
      expect.stringContaining("hidden (Mentions a competitor's shop.)"),
      expect.stringContaining("shown again"),
    ]);

    await settleMail();
    const mails = (await mailsTo(buyer.email)).filter((m) => /your review/i.test(m.subject));
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/is hidden$/), expect.stringMatching(/is shown again$/)]);
    expect(mails[0]!.text).toContain("Our reason: Mentions a competitor's shop.");
  });
});

describe("the invitation and the order page", () => {
  it("a delivered order invites its customer once, and its page links each piece to its review", async () => {
    await settleMail();
    const invites = (await mailsTo(buyer.email)).filter((m) => /how do you like your order/i.test(m.subject));
    expect(invites).toHaveLength(1);
    expect(invites[0]!.subject).toContain(`#${buyerOrder}`);
    expect(invites[0]!.text).toContain(`/product/${sofaSlug}/review`);
    // Delivered is final: a second move is refused, and no second invitation goes out.
    await expect(changeOrderStatus(buyerOrder, "delivered", ADMIN)).rejects.toMatchObject({ status: 409 });
    await settleMail();
    expect((await mailsTo(buyer.email)).filter((m) => /how do you like your order/i.test(m.subject))).toHaveLength(1);
    expect((await mailsTo(waiting.email)).filter((m) => /how do you like your order/i.test(m.subject))).toHaveLength(0);

    const page = asRecord(
      (
        await call(orderPage.loader, getRequest(`/order-confirmation/${buyerOrder}`, { Cookie: await browserOf(buyer) }), {
          orderId: String(buyerOrder),
        })
      ).body,
    );
    expect(page.reviewable).toEqual([{ itemId: sofa, title: expect.any(String), slug: sofaSlug, reviewed: true }]);
  });
});

describe("the reviews API", () => {
  it("POST /api/item/reviews: 401 signed out, 403 not received, 400 bad input, 404 no product, 201 written, 200 edited", async () => {
    const lamp = await item("lamp", 3000, 10);
    await order(waiting, lamp, true);
    const post = (body: unknown, headers: Record<string, string> = waiting.auth) =>
      call(reviewsApi.action, jsonRequest("POST", "/api/item/reviews", body, headers));
    const good = { itemId: lamp, rating: 5, title: "Warm light", body: "Just right for reading." };
    expectApiError(await post(good, {}), 401);
    expect(expectApiError(await post(good, stranger.auth), 403).message).toBe(REVIEW_MESSAGES.notBuyer);
    const bad = expectApiError(await post({ itemId: lamp, rating: 0, title: "", body: "b" }), 400);
    expect(bad.errors).toEqual({ rating: REVIEW_MESSAGES.rating, title: REVIEW_MESSAGES.title });
    expectApiError(await post({ ...good, itemId: 2147483000 }), 404);
    expect(await reviewRows(lamp)).toEqual([]);

    const created = await post(good);
    expect(created.status).toBe(201);
    expect(asRecord(created.body)).toMatchObject({ itemId: lamp, rating: 5, title: "Warm light", visible: true });
    const edited = await post({ ...good, rating: 3 });
    expect(edited.status).toBe(200);
    expect(asRecord(edited.body).id).toBe(asRecord(created.body).id);
    expect(await sums(lamp)).toEqual({ averageRating: 3, reviewCount: 1 });
    await settleMail();
  });
});

describe("migration 2026-11-26-0020-reviews", () => {
  it("down drops the tables and the product sums; up makes them again, empty and working", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0020.up>[0];
    await m0020.down(raw);
    await expect(db.selectFrom("reviews").select("id").execute()).rejects.toThrow();
    await expect(db.selectFrom("items").select("reviewCount").limit(1).execute()).rejects.toThrow();
    await m0020.up(raw);
    expect(await db.selectFrom("reviews").select("id").execute()).toEqual([]);
    expect(await sums(sofa)).toEqual({ averageRating: null, reviewCount: 0 });
    await saveReview(buyer.user.id, { itemId: sofa, rating: 3, title: "Again", body: "After the migration." });
    expect(await sums(sofa)).toEqual({ averageRating: 3, reviewCount: 1 });
  });
});
