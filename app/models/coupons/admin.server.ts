// The staff's coupons (/admin/coupons): a paged, searchable list with how often each was used,
// creating and editing one, pausing and resuming it, and deleting one nobody used. Each change
// writes its audit row in the same transaction. The customer's side is check, apply and uses.server.
import type { Db } from "~/lib/db.server";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import { containsText, db as defaultDb, isForeignKeyViolation, isUniqueViolation, nowIso, toCount } from "~/lib/db.server";
import type { CouponKind } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import { describeDeal } from "~/utils/coupon-fields";
import type { CouponInput } from "~/utils/coupon-schemas";
import { diffDetails, recordAudit, rowDetails } from "~/models/audit.server";
import type { Actor } from "~/models/staff/staff.server";
import type { CouponRow } from "./check.server";
import { heldUses, isLiveHold, lockedCoupon } from "./check.server";

export interface AdminCoupon {
  id: number;
  code: string;
  kind: CouponKind;
  value: number;
  deal: string;
  minSubtotal: number;
  maxDiscount: number | null;
  validFrom: string | null;
  validUntil: string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  /** orders using it now (cancelled ones gave theirs back) */
  uses: number;
  /** uses held now by payments being made (ADR 0019): they count against the limits too */
  held: number;
  paused: boolean;
  /** null: every category */
  categoryIds: number[] | null;
  categoryTitles: string[];
}

async function withCategories(db: Db, rows: CouponRow[]): Promise<AdminCoupon[]> {
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? await db
        .selectFrom("couponCategories")
        .innerJoin("categories", "categories.id", "couponCategories.categoryId")
        .select(["couponCategories.couponId", "categories.id", "categories.title"])
        .where("couponCategories.couponId", "in", ids)
        .orderBy("categories.title")
        .execute()
    : [];
  const held = ids.length
    ? await db
        .selectFrom("couponHolds")
        .select(["couponId", (eb) => eb.fn.countAll<number | string>().as("n")])
        .where("couponId", "in", ids)
        .where(isLiveHold(nowIso()))
        .groupBy("couponId")
        .execute()
    : [];
  return rows.map((r) => {
    const mine = links.filter((l) => l.couponId === r.id);
    return {
      id: r.id,
      code: r.code,
      kind: r.kind,
      value: r.value,
      deal: describeDeal(r),
      minSubtotal: r.minSubtotal,
      maxDiscount: r.maxDiscount,
      validFrom: r.validFrom,
      validUntil: r.validUntil,
      usageLimit: r.usageLimit,
      perCustomerLimit: r.perCustomerLimit,
      uses: r.uses,
      held: toCount(held.find((h) => h.couponId === r.id)?.n ?? 0),
      paused: r.paused === 1,
      categoryIds: r.limited ? mine.map((l) => l.id) : null,
      categoryTitles: mine.map((l) => l.title),
    };
  });
}

/** A page of the list: newest first, searched by a substring of the code. */
export async function listCouponsPage(query: { q: string }, window: RowWindow, db: Db = defaultDb): Promise<ListPage<AdminCoupon>> {
  let base = db.selectFrom("coupons");
  if (query.q) base = base.where(containsText("coupons.code", query.q));
  const { n } = await base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  const total = toCount(n);
  const rows = await base.selectAll("coupons").orderBy("id", "desc").limit(window.limit).offset(window.offset).execute();
  return { rows: await withCategories(db, rows), total };
}

/** The categories the coupon form offers (a coupon may be limited to some of them). */
export async function couponFormCategories(db: Db = defaultDb): Promise<{ id: number; title: string }[]> {
  return db.selectFrom("categories").select(["id", "title"]).orderBy("position").orderBy("id").execute();
}

export async function getCouponForAdmin(id: number, db: Db = defaultDb): Promise<AdminCoupon | null> {
  const row = await db.selectFrom("coupons").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? (await withCategories(db, [row]))[0]! : null;
}

const CODE_TAKEN = "A coupon with this code exists already. Choose another code.";

/** The columns an input sets (the code only at creation). */
function columns(input: CouponInput) {
  return {
    kind: input.kind,
    value: input.value,
    minSubtotal: input.minSubtotal,
    maxDiscount: input.maxDiscount,
    validFrom: input.validFrom,
    validUntil: input.validUntil,
    usageLimit: input.usageLimit,
    perCustomerLimit: input.perCustomerLimit,
    limited: input.categoryIds.length > 0 ? 1 : 0,
  };
}

async function setCategories(trx: Db, couponId: number, categoryIds: number[]): Promise<void> {
  await trx.deleteFrom("couponCategories").where("couponId", "=", couponId).execute();
  if (categoryIds.length === 0) return;
  const gone = () =>
    new AppError(400, "A chosen category no longer exists", {
      fieldErrors: { categoryIds: "A chosen category no longer exists. Reload the form." },
    });
  const known = await trx.selectFrom("categories").select("id").where("id", "in", categoryIds).execute();
  if (known.length !== categoryIds.length) throw gone();
  try {
    await trx
      .insertInto("couponCategories")
      .values(categoryIds.map((categoryId) => ({ couponId, categoryId })))
      .execute();
  } catch (error) {
    // The check above reads committed rows: a category being deleted meanwhile meets the foreign key.
    if (isForeignKeyViolation(error)) throw gone();
    throw error;
  }
}

/** The columns a coupon's audit rows record before and after (its value, limits, dates; `paused` for active). */
const COUPON_AUDITED = [
  "kind",
  "value",
  "minSubtotal",
  "maxDiscount",
  "validFrom",
  "validUntil",
  "usageLimit",
  "perCustomerLimit",
  "limited",
] as const satisfies readonly (keyof ReturnType<typeof columns>)[];

/** Is this coupon already exactly what the input asks for? (A repeated create is then no change.) */
function sameAs(existing: AdminCoupon, input: CouponInput): boolean {
  const want = columns(input);
  const ids = [...input.categoryIds].sort((a, b) => a - b).join(",");
  const have = [...(existing.categoryIds ?? [])].sort((a, b) => a - b).join(",");
  return (
    existing.kind === want.kind &&
    existing.value === want.value &&
    existing.minSubtotal === want.minSubtotal &&
    existing.maxDiscount === want.maxDiscount &&
    existing.validFrom === want.validFrom &&
    existing.validUntil === want.validUntil &&
    existing.usageLimit === want.usageLimit &&
    existing.perCustomerLimit === want.perCustomerLimit &&
    (existing.categoryIds === null) === (want.limited === 0) &&
    ids === have
  );
}

/**
 * A new coupon, its categories and its audit row in one transaction. Idempotent: the same form
 * posted twice (a double click, a retry) makes one coupon; another coupon's code is a 409 beside
 * the field.
 */
export async function createCoupon(input: CouponInput, actor: Actor, db: Db = defaultDb): Promise<AdminCoupon> {
  try {
    const id = await db.transaction().execute(async (trx) => {
      const now = nowIso();
      const row = await trx
        .insertInto("coupons")
        .values({ code: input.code, ...columns(input), createdAt: now, updatedAt: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      await setCategories(trx, row.id, input.categoryIds);
      await recordAudit(trx, {
        action: "create",
        entity: "coupon",
        entityId: row.id,
        summary: `Created coupon ${input.code}: ${describeDeal(input)}`,
        actor,
        details: { ...rowDetails(columns(input), COUPON_AUDITED), categoryIds: [null, input.categoryIds.join(",")] },
      });
      return row.id;
    });
    return (await getCouponForAdmin(id, db))!;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await db.selectFrom("coupons").select("id").where("code", "=", input.code).executeTakeFirst();
    const coupon = existing ? await getCouponForAdmin(existing.id, db) : null;
    if (coupon && sameAs(coupon, input)) return coupon;
    throw new AppError(409, CODE_TAKEN, { fieldErrors: { code: CODE_TAKEN } });
  }
}

/** An edit: everything but the code (customers and past orders know it by its code). Uses are kept. */
export async function updateCoupon(id: number, input: CouponInput, actor: Actor, db: Db = defaultDb): Promise<AdminCoupon> {
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("coupons")
      .select(["code", ...COUPON_AUDITED])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!before) throw new AppError(404, "Coupon Not Found");
    const categoriesBefore = await trx
      .selectFrom("couponCategories")
      .select("categoryId")
      .where("couponId", "=", id)
      .orderBy("categoryId")
      .execute();
    await trx
      .updateTable("coupons")
      .set({ ...columns(input), updatedAt: nowIso() })
      .where("id", "=", id)
      .execute();
    await setCategories(trx, id, input.categoryIds);
    await recordAudit(trx, {
      action: "update",
      entity: "coupon",
      entityId: id,
      summary: `Edited coupon ${before.code}: ${describeDeal(input)}`,
      actor,
      details: diffDetails(
        { ...before, categoryIds: categoriesBefore.map((c) => c.categoryId).join(",") },
        { ...before, ...columns(input), categoryIds: [...input.categoryIds].sort((a, b) => a - b).join(",") },
        [...COUPON_AUDITED, "categoryIds"],
      ),
    });
  });
  return (await getCouponForAdmin(id, db))!;
}

/** Pause or resume: a paused code is refused to customers (orders placed already keep it). Setting the same state again changes nothing. */
export async function setCouponPaused(id: number, paused: boolean, actor: Actor, db: Db = defaultDb): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("coupons").select(["code", "paused"]).where("id", "=", id).executeTakeFirst();
    if (!row) throw new AppError(404, "Coupon Not Found");
    if (row.paused === (paused ? 1 : 0)) return row.code;
    await trx
      .updateTable("coupons")
      .set({ paused: paused ? 1 : 0, updatedAt: nowIso() })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      action: "status",
      entity: "coupon",
      entityId: id,
      summary: `${paused ? "Paused" : "Resumed"} coupon ${row.code}`,
      actor,
      details: { active: [paused, !paused] },
    });
    return row.code;
  });
}

/**
 * Delete a coupon no order has used; a used one stays (its orders name it): pause it instead. One a
 * payment being made holds a use of (under its locked row, as a new hold takes it) stays too: the
 * payment was priced with it.
 */
export async function deleteCoupon(id: number, actor: Actor, db: Db = defaultDb): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await lockedCoupon(trx, id);
    if (!row) throw new AppError(404, "Coupon Not Found");
    const used = await trx.selectFrom("orders").select("id").where("couponCode", "=", row.code).executeTakeFirst();
    if (used) throw new AppError(409, `Orders have used ${row.code}, so it stays on record. Pause it instead.`);
    if ((await heldUses(trx, id, null, nowIso())).held > 0) {
      throw new AppError(409, `A payment being made holds a use of ${row.code}, so it cannot be deleted now. Pause it instead.`);
    }
    await trx.deleteFrom("coupons").where("id", "=", id).execute();
    await recordAudit(trx, { action: "delete", entity: "coupon", entityId: id, summary: `Deleted coupon ${row.code}`, actor });
  });
}
