// The staff's returns: the list by state, and deciding on a return or receiving its goods. An
// approved return becomes `returned` when the goods arrive: their units go back to stock then (only
// then), and the refund of an online payment is queued in the same transaction and sent after it.
import type { Db } from "~/lib/db.server";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import { db as defaultDb, nowIso, toCount } from "~/lib/db.server";
import type { ReturnStatus } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import { checkReturnTransition, RETURN_LABEL } from "~/utils/order-status";
import type { ReturnFilter } from "~/utils/returns";
import { recordAudit } from "~/models/audit.server";
import { lockItems, returnUnits } from "~/models/catalogue/variants.server";
import type { Actor } from "~/models/staff/staff.server";
import { queueRefund } from "~/models/refunds/queue.server";
import { sendRefundQuietly } from "~/models/refunds/send.server";
import { getUserById } from "~/models/users/users.server";
import { queueReturnMail } from "./mail.server";
import type { OrderReturn } from "./read.server";
import { returnsForOrder } from "./read.server";

/**
 * The shop decides on a return or receives its goods, by the rules of utils/order-status:
 * approve or reject (with a note the customer reads) a requested return; mark an approved one
 * `returned` when the goods arrive: their units go back to stock and, for an online payment, its
 * refund is queued, in the same transaction as the change and its audit row. A change racing
 * another is refused (409). The customer's mail is queued in that transaction; the refund is sent
 * to the gateway once it commits.
 */
export async function decideReturn(
  returnId: number,
  to: Extract<ReturnStatus, "approved" | "rejected" | "returned">,
  note: string | null,
  actor: Actor,
  db: Db = defaultDb,
): Promise<OrderReturn> {
  const { refundId, changed } = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("returnRequests").selectAll().where("id", "=", returnId).executeTakeFirst();
    if (!row) throw new AppError(404, "That return was not found");
    const check = checkReturnTransition(row.status, to, "admin");
    if (!check.ok) throw new AppError(check.status, check.message);
    const now = nowIso();
    const moved = await trx
      .updateTable("returnRequests")
      .set({ status: to, updatedAt: now, ...(to === "rejected" ? { staffNote: note } : {}) })
      .where("id", "=", returnId)
      .where("status", "=", row.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new AppError(409, "This return changed a moment ago. Please reload and try again.");
    await trx
      .insertInto("returnEvents")
      .values({
        returnId,
        fromStatus: row.status,
        toStatus: to,
        actor: "admin",
        actorUserId: null,
        note: to === "rejected" ? note : null,
        createdAt: now,
      })
      .execute();
    let refundId: number | null = null;
    if (to === "returned") {
      const lines = await trx
        .selectFrom("returnLines")
        .innerJoin("orderItems", "orderItems.id", "returnLines.orderItemId")
        .select(["orderItems.itemId", "orderItems.variantId", "returnLines.quantity"])
        .where("returnLines.returnId", "=", returnId)
        .orderBy("orderItems.itemId")
        .orderBy("orderItems.variantId")
        .execute();
      await lockItems(
        trx,
        lines.flatMap((l) => (l.itemId === null ? [] : [l.itemId])),
      );
      // A product deleted since has nothing to put back.
      for (const line of lines) await returnUnits(trx, line, now);
      const order = await trx.selectFrom("orders").select(["paymentOrderId"]).where("id", "=", row.orderId).executeTakeFirstOrThrow();
      if (order.paymentOrderId && row.refundAmount > 0) {
        const refund = await queueRefund(trx, {
          paymentOrderId: order.paymentOrderId,
          orderId: row.orderId,
          amount: row.refundAmount,
          reason: "returned",
          key: `return:${returnId}`,
          actor: "admin",
          staff: actor,
        });
        refundId = refund.id;
      }
    }
    const change = `${RETURN_LABEL[row.status]} → ${RETURN_LABEL[to]}${note ? ` (${note})` : ""}`;
    const summary = `Return #${returnId} of order #${row.orderId}: ${change}`;
    await recordAudit(trx, {
      action: "status",
      entity: "return",
      entityId: returnId,
      summary,
      actor,
      details: { status: [row.status, to] },
    });
    // The customer's mail, queued with the change.
    const changed = (await returnsForOrder(row.orderId, trx)).find((r) => r.id === returnId)!;
    const customer = await trx.selectFrom("orders").select("userId").where("id", "=", row.orderId).executeTakeFirstOrThrow();
    const user = await getUserById(customer.userId, trx);
    if (user) await queueReturnMail(trx, changed, user);
    return { orderId: row.orderId, refundId, changed };
  });
  await sendRefundQuietly(refundId, db);
  return changed;
}

export interface AdminReturnRow {
  id: number;
  orderId: number;
  status: ReturnStatus;
  reason: string;
  refundAmount: number;
  createdAt: string;
  customer: string;
  units: number;
}

function returnsOf(db: Db, filter: ReturnFilter) {
  const query = db.selectFrom("returnRequests");
  if (filter === "all") return query;
  if (filter === "open") return query.where("returnRequests.status", "in", ["requested", "approved"]);
  return query.where("returnRequests.status", "=", filter);
}

/**
 * The staff's returns list, a page of it: waiting ones oldest first (the queue's
 * order), the others newest first; with the customer and the units. Reads one page and a count.
 */
export async function listReturnsPage(
  query: { status: ReturnFilter },
  window: RowWindow,
  db: Db = defaultDb,
): Promise<ListPage<AdminReturnRow>> {
  const { n } = await returnsOf(db, query.status)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const total = toCount(n as number);
  const waiting = query.status === "open" || query.status === "requested" || query.status === "approved";
  const rows = await returnsOf(db, query.status)
    .innerJoin("users", "users.id", "returnRequests.userId")
    .select([
      "returnRequests.id",
      "returnRequests.orderId",
      "returnRequests.status",
      "returnRequests.reason",
      "returnRequests.refundAmount",
      "returnRequests.createdAt",
      "users.email as customer",
      (eb) =>
        eb
          .selectFrom("returnLines")
          .select((l) => l.fn.sum<number | string>("returnLines.quantity").as("u"))
          .whereRef("returnLines.returnId", "=", "returnRequests.id")
          .as("units"),
    ])
    .orderBy("returnRequests.id", waiting ? "asc" : "desc")
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows: rows.map((r) => ({ ...r, units: Number(r.units ?? 0) })), total };
}
