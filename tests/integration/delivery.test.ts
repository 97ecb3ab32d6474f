// Delivery by pincode (ADR 0017), on SQLite and PostgreSQL: the directory migration 0018 loads, the
// zone that decides (the most specific wins), GET /api/delivery, the product page's Check delivery,
// the checkout's refusals (API and page) with nothing written, what an order is promised, the
// staff's zones (audited), and the migration's down and up.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import { settleMail } from "~/lib/mail.server";
import { createZone, deleteZone, updateZone } from "~/models/delivery/zones.server";
import { findPincode, zoneFor } from "~/models/delivery/quote.server";
import { getOrder } from "~/models/orders/read.server";
import * as adminDelivery from "~/routes/admin.delivery";
import * as apiDelivery from "~/routes/api.delivery";
import * as checkoutPage from "~/routes/checkout";
import * as loginRoute from "~/routes/login";
import * as productPage from "~/routes/product.$slug";
import { DELIVERY_MESSAGES } from "~/utils/delivery";
import { dateAtNoonInIndia, deliveryWindow } from "~/utils/delivery-dates";
import { ZoneFormSchema } from "~/utils/delivery-schemas";
import { grantAdmin } from "~/web/sign-in.server";
import * as m0018 from "../../migrations/2026-11-26-0018-delivery-by-pincode";
import * as m0027 from "../../migrations/2026-11-29-0027-dashboard-figure-indexes";
import { formRequest, getRequest, mergeCookies } from "../support/requests";
import { asRecord, call, cookieJar, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, itemMaker, newCustomer, PASSWORD, placeViaApi, snapshot } from "../support/orders";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

let adminCookie = "";
const item = itemMaker("delivery");

beforeAll(async () => {
  await ready;
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
});

const api = (query: string, headers: Record<string, string> = {}) =>
  call(apiDelivery.loader, getRequest(`/api/delivery?${query}`, headers));
const zone = (fields: Record<string, unknown>) =>
  ZoneFormSchema.parse({ cod: "on", served: "on", label: "Test zone", minDays: "3", maxDays: "4", ...fields });
const daysOf = async (pincode: number) => {
  const z = await zoneFor((await findPincode(pincode))!);
  return z && z.served ? `${z.minDays}-${z.maxDays}` : "not served";
};

describe("the pincode directory (migration 0018)", () => {
  it("holds every pincode of the source, with today's state names and border pincodes' second state", async () => {
    const { n } = await db
      .selectFrom("pincodes")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(toCount(n)).toBe(19159);
    expect(await findPincode("380009")).toMatchObject({ city: "Ahmedabad", district: "Ahmedabad", state: "Gujarat", otherState: null });
    expect(await findPincode(500001)).toMatchObject({ state: "Telangana", district: "Hyderabad" });
    expect(await findPincode(194101)).toMatchObject({ state: "Ladakh" });
    expect(await findPincode(396210)).toMatchObject({ state: "Dadra and Nagar Haveli and Daman and Diu" });
    expect(await findPincode(605007)).toMatchObject({ state: "Puducherry", otherState: "Tamil Nadu" });
    expect(await findPincode(999999)).toBeNull();
  });
});

describe("the zone that decides: a range, then the district, then the state, then the default", () => {
  it("follows the most specific zone as the staff add and delete them", async () => {
    // The migration's zones: Ahmedabad is a metro district, Vadodara (390001) falls to the default.
    expect(await daysOf(380009)).toBe("5-7");
    expect(await daysOf(390001)).toBe("7-10");
    const gujarat = await createZone(zone({ kind: "state", state: "gujarat", minDays: "6", maxDays: "9" }), BUILTIN_OWNER);
    expect(await daysOf(390001)).toBe("6-9");
    expect(await daysOf(380009)).toBe("5-7");
    const wide = await createZone(
      zone({ kind: "range", pincodeFrom: "380000", pincodeTo: "380099", minDays: "3", maxDays: "4" }),
      BUILTIN_OWNER,
    );
    expect(await daysOf(380009)).toBe("3-4");
    const narrow = await createZone(
      zone({ kind: "range", pincodeFrom: "380009", pincodeTo: "380009", minDays: "2", maxDays: "2" }),
      BUILTIN_OWNER,
    );
    expect(await daysOf(380009)).toBe("2-2");
    expect(await daysOf(380001)).toBe("3-4");
    await deleteZone(narrow, BUILTIN_OWNER);
    await deleteZone(wide, BUILTIN_OWNER);
    expect(await daysOf(380009)).toBe("5-7");
    await updateZone(gujarat, zone({ kind: "state", state: "Gujarat", served: "" }), BUILTIN_OWNER);
    expect(await daysOf(390001)).toBe("not served");
    expect(await daysOf(380009)).toBe("5-7");
    await deleteZone(gujarat, BUILTIN_OWNER);
    expect(await daysOf(390001)).toBe("7-10");
  });
});

describe("GET /api/delivery", () => {
  it("answers where a pincode is, whether and by when the shop delivers, and cash on delivery; public and cached", async () => {
    const answer = await api("pincode=380009");
    expect(answer.status).toBe(200);
    const { latest } = deliveryWindow(new Date(), { min: 5, max: 7 });
    expect(answer.body).toEqual({
      pincode: "380009",
      serviceable: true,
      city: "Ahmedabad",
      district: "Ahmedabad",
      state: "Gujarat",
      days: { min: 5, max: 7 },
      deliveryBy: latest,
      cod: true,
    });
    expect(answer.headers.get("Cache-Control")).toBe("public, max-age=60, stale-while-revalidate=600");
    const etag = answer.headers.get("ETag")!;
    const again = await apiDelivery.loader({
      request: getRequest("/api/delivery?pincode=380009", { "If-None-Match": etag }),
      params: {},
      context: {},
    });
    expect(again.status).toBe(304);
  });

  it("an unserved pincode: serviceable false, no days, no date; Ladakh: served without cash on delivery", async () => {
    expect((await api("pincode=682555")).body).toMatchObject({
      serviceable: false,
      state: "Lakshadweep",
      days: null,
      deliveryBy: null,
      cod: false,
    });
    expect((await api("pincode=194101")).body).toMatchObject({ serviceable: true, state: "Ladakh", days: { min: 7, max: 10 }, cod: false });
  });

  it("a made-to-order product takes at least 14-21 business days (the demo's hand-carved bed is one)", async () => {
    const bed = await db.selectFrom("items").select("id").where("slug", "=", "hand-carved-rosewood-king-bed").executeTakeFirstOrThrow();
    expect(asRecord((await api(`pincode=380009&itemId=${bed.id}`)).body).days).toEqual({ min: 14, max: 21 });
    const id = await item("made-to-order-bed", 30000, 5);
    await db.updateTable("items").set({ madeToOrder: 1 }).where("id", "=", id).execute();
    const answer = asRecord((await api(`pincode=380009&itemId=${id}`)).body);
    expect(answer.days).toEqual({ min: 14, max: 21 });
    expect(answer.deliveryBy).toBe(deliveryWindow(new Date(), { min: 14, max: 21 }).latest);
  });

  it("400 for a malformed pincode or itemId, 404 for a pincode or product that does not exist", async () => {
    for (const query of [
      "",
      "pincode=",
      "pincode=38000",
      "pincode=3800091",
      "pincode=038000",
      "pincode=abcdef",
      "pincode=380009&pincode=380001",
    ]) {
      // docs/api.md, Delivery: the one message, a pincode sent twice included.
      const body = expectApiError(await api(query), 400);
      expect(body, query).toMatchObject({ message: DELIVERY_MESSAGES.pincode, errors: { pincode: DELIVERY_MESSAGES.pincode } });
    }
    for (const query of ["pincode=380009&itemId=abc", "pincode=380009&itemId=1&itemId=2"]) {
      expect(expectApiError(await api(query), 400).errors, query).toEqual({ itemId: "A valid id is required" });
    }
    expect(expectApiError(await api("pincode=999999"), 404).message).toBe("We could not find pincode 999999. Please check it.");
    expect(expectApiError(await api("pincode=380009&itemId=99999999"), 404).message).toBe("Product not found");
  });
});

describe("the product page's Check delivery", () => {
  it("answers the pincode asked, remembers it for the visit in a cookie, and says when it cannot", async () => {
    const slug = "sheesham-wood-3-seater-sofa";
    const page = (query: string, headers: Record<string, string> = {}) =>
      call(productPage.loader, getRequest(`/product/${slug}${query}`, headers), { slug });
    const none = await page("");
    expect(asRecord(none.body).delivery).toEqual({ pincode: null });

    const asked = await page("?pincode=380009");
    expect(asked.status).toBe(200);
    expect(asRecord(asRecord(asked.body).delivery).quote).toMatchObject({ serviceable: true, city: "Ahmedabad", days: { min: 5, max: 7 } });
    const cookie = cookieJar(asked);
    expect(cookie).toContain("sl_pincode=");
    const remembered = await page("", { Cookie: cookie });
    expect(asRecord(asRecord(remembered.body).delivery).pincode).toBe("380009");

    const unserved = await page("?pincode=682555");
    expect(asRecord(asRecord(unserved.body).delivery).quote).toMatchObject({ serviceable: false });
    const bad = await page("?pincode=12ab");
    expect(bad.status).toBe(400);
    expect(asRecord(bad.body).delivery).toEqual({ pincode: "12ab", error: "Please enter a valid 6-digit pincode" });
    const unknown = await page("?pincode=999999");
    expect(unknown.status).toBe(400);
    expect(asRecord(unknown.body).delivery).toEqual({ pincode: "999999", error: "We could not find pincode 999999. Please check it." });
    expect(unknown.headers.get("Set-Cookie")).toBeNull();
  });
});

describe("the checkout refuses an address the shop cannot serve, beside its field, and writes nothing", () => {
  let customer: Customer;
  let itemId: number;
  beforeAll(async () => {
    customer = await newCustomer("delivery-refusals");
    itemId = await item("refusal-chair", 5000, 50);
    await addToCart(customer, itemId, 1);
  });

  it.each([
    [{ pincode: "999999" }, "pincode", "We could not find pincode 999999. Please check it."],
    [{ pincode: "380009", state: "Maharashtra" }, "state", "Pincode 380009 is in Gujarat. Please check the state or the pincode."],
    [{ pincode: "682555", state: "Lakshadweep" }, "pincode", "We do not deliver to 682555 yet."],
    [{ pincode: "194101", state: "Ladakh" }, "paymentMethod", "Cash on delivery is not available for pincode 194101. Please pay online."],
  ])("POST /api/orders/add with %j: 400, errors.%s", async (fields, field, message) => {
    const before = await snapshot(customer, [itemId]);
    const body = expectApiError(await placeViaApi(customer, checkoutFields(fields)), 400);
    expect(body.message).toBe(message);
    expect(body.errors).toEqual({ [field]: message });
    expect(await snapshot(customer, [itemId])).toEqual(before);
  });

  it("the checkout page shows the message beside the field (400), and nothing is ordered", async () => {
    const login = await call(loginRoute.action, formRequest("/login", { email: customer.email, password: PASSWORD }));
    const cookie = cookieJar(login);
    const before = await snapshot(customer, [itemId]);
    const fields = { ...checkoutFields({ pincode: "682555", state: "Lakshadweep" }), idempotencyKey: "k".repeat(32) } as Record<
      string,
      string
    >;
    const answer = await call(checkoutPage.action, formRequest("/checkout", fields, { Cookie: cookie }));
    expect(answer.status).toBe(400);
    expect(asRecord(answer.body)).toMatchObject({ fieldErrors: { pincode: "We do not deliver to 682555 yet." } });
    // Online payment from the page: refused before a payment order is made.
    const online = await call(
      checkoutPage.action,
      formRequest("/checkout", { ...fields, pincode: "380009", state: "Kerala", paymentMethod: "online" }, { Cookie: cookie }),
    );
    expect(online.status).toBe(400);
    expect(asRecord(online.body)).toMatchObject({ fieldErrors: { state: expect.stringContaining("Gujarat") } });
    expect(await snapshot(customer, [itemId])).toEqual(before);
    const payments = await db.selectFrom("paymentOrders").select("id").where("userId", "=", customer.user.id).execute();
    expect(payments).toHaveLength(0);
  });

  it("a border pincode takes either of its states; the order keeps the zone's days and date", async () => {
    const placed = await placeViaApi(customer, checkoutFields({ pincode: "605007", state: "tamil nadu", city: "Puducherry" }));
    expect(placed.status).toBe(201);
    const order = (await getOrder(Number(asRecord(placed.body).id), { userId: null, isAdmin: true }))!;
    expect(order.shippingAddress.state).toBe("Tamil Nadu");
    expect(order.deliveryDays).toEqual({ min: 7, max: 10 });
    const latest = deliveryWindow(new Date(), { min: 7, max: 10 }).latest;
    expect(order.estimatedDelivery).toBe(dateAtNoonInIndia(latest));
    expect(asRecord(placed.body).deliveryDays).toEqual({ min: 7, max: 10 });
    await settleMail();
  });
});

describe("/admin/delivery: the staff's zones", () => {
  const post = (fields: Record<string, string>, query = "") =>
    call(adminDelivery.action, formRequest(`/admin/delivery${query}`, fields, { Cookie: adminCookie }));
  const audits = () =>
    db.selectFrom("auditLog").select(["action", "summary"]).where("entity", "=", "delivery_zone").orderBy("id").execute();

  it("adds, edits and deletes a zone, each with its audit row; refuses bad input beside the field and writes nothing", async () => {
    const page = await call(adminDelivery.loader, getRequest("/admin/delivery", { Cookie: adminCookie }));
    expect((asRecord(page.body).zones as unknown[]).length).toBeGreaterThanOrEqual(12);
    const base = {
      kind: "district",
      state: "Kerala",
      district: "ernakulam",
      minDays: "4",
      maxDays: "6",
      label: "Kochi",
      cod: "on",
      served: "on",
    };
    expect((await post({ ...base, intent: "create" })).status).toBe(302);
    const row = await db
      .selectFrom("deliveryZones")
      .selectAll()
      .where("scopeKey", "=", "district:Kerala|Ernakulam")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: "district", district: "Ernakulam", minDays: 4, maxDays: 6, cod: 1, served: 1 });
    expect(await daysOf(682028)).toBe("4-6");

    const zonesBefore = await db.selectFrom("deliveryZones").selectAll().execute();
    const refusals: [Record<string, string>, string][] = [
      [{ ...base, maxDays: "3" }, "maxDays"],
      [{ ...base, district: "Atlantis" }, "district"],
      [{ ...base, kind: "range", pincodeFrom: "682100", pincodeTo: "682000" }, "pincodeTo"],
      [{ ...base, kind: "state", state: "Narnia" }, "state"],
      [{ ...base, minDays: "0" }, "minDays"],
    ];
    for (const [fields, field] of refusals) {
      const answer = await post({ ...fields, intent: "create" });
      expect(answer.status).toBe(400);
      expect(Object.keys(asRecord(asRecord(answer.body).fieldErrors))).toContain(field);
    }
    expect((await post({ ...base, intent: "create" })).status).toBe(409);
    expect(await db.selectFrom("deliveryZones").selectAll().execute()).toEqual(zonesBefore);

    expect((await post({ ...base, served: "", intent: "update", id: String(row.id) })).status).toBe(302);
    expect(await daysOf(682028)).toBe("not served");
    expect((await post({ intent: "delete", id: String(row.id) })).status).toBe(302);
    expect(await daysOf(682028)).toBe("7-10");
    const defaultZone = await db.selectFrom("deliveryZones").select("id").where("kind", "=", "default").executeTakeFirstOrThrow();
    expect((await post({ intent: "delete", id: String(defaultZone.id) })).status).toBe(409);
    expect((await audits()).slice(-3)).toEqual([
      { action: "create", summary: "Delivery zone Ernakulam, Kerala: 4-6 business days, cash on delivery" },
      { action: "update", summary: "Delivery zone Ernakulam, Kerala: not served" },
      { action: "delete", summary: "Delivery zone Ernakulam, Kerala deleted" },
    ]);
  });

  it("without the admin flag: no list (redirect) and no change (403)", async () => {
    expect((await call(adminDelivery.loader, getRequest("/admin/delivery"))).status).toBe(302);
    expect((await call(adminDelivery.action, formRequest("/admin/delivery", { intent: "create", kind: "state" }))).status).toBe(403);
  });
});

describe("migration 2026-11-26-0018-delivery-by-pincode", () => {
  it("down drops the directory, the zones and the columns and keeps the orders; up loads them again", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0018.up>[0];
    const orders = (await db.selectFrom("orders").select("id").execute()).length;
    // 0027's low-stock index holds made_to_order: down in reverse order, up in order.
    await m0027.down(raw);
    await m0018.down(raw);
    try {
      await expect(db.selectFrom("pincodes").select("pincode").execute()).rejects.toThrow();
      await expect(db.selectFrom("orders").select("deliveryMinDays").execute()).rejects.toThrow();
      await expect(db.selectFrom("items").select("madeToOrder").execute()).rejects.toThrow();
      expect((await db.selectFrom("orders").select("id").execute()).length).toBe(orders);
    } finally {
      await db.transaction().execute((trx) => m0018.up(trx.withoutPlugins() as unknown as Parameters<typeof m0018.up>[0]));
      await m0027.up(raw);
    }
    expect(await findPincode(380009)).toMatchObject({ state: "Gujarat" });
    expect((await db.selectFrom("deliveryZones").select("id").execute()).length).toBe(12);
    expect(await daysOf(380009)).toBe("5-7");
  });
});
