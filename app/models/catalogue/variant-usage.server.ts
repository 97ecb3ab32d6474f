// What still uses a product's variants, before staff delete one (or an option value, which
// deletes its variants): a cart line, a payment hold (stock_reservations) or an open order's line.
// Cart lines and holds would go with the variant (their foreign keys cascade) and an order line
// keeps only its variant's id (no foreign key: a snapshot), so the page refuses instead and says
// why; the variant can be deactivated, which keeps every line and stops new sales.
import type { Db } from "~/lib/db.server";
import { toCount } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { OrderStatus } from "~/utils/order-status";

/** Orders whose lines may still ship, be cancelled (units back to their variant) or change. */
export const OPEN_ORDER_STATUSES: readonly OrderStatus[] = ["processing", "shipped"];

export interface VariantUsage {
  carts: number;
  holds: number;
  openOrders: number;
}

/** How many carts, payment holds and open orders hold any of these variants (each counted once). */
export async function usageOf(trx: Db, variantIds: number[]): Promise<VariantUsage> {
  if (variantIds.length === 0) return { carts: 0, holds: 0, openOrders: 0 };
  const [carts, holds, orders] = await Promise.all([
    trx
      .selectFrom("cartLines")
      .select((eb) => eb.fn.count("cartId").distinct().as("n"))
      .where("variantId", "in", variantIds)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom("stockReservations")
      .select((eb) => eb.fn.count("paymentOrderId").distinct().as("n"))
      .where("variantId", "in", variantIds)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select((eb) => eb.fn.count("orders.id").distinct().as("n"))
      .where("orderItems.variantId", "in", variantIds)
      .where("orders.status", "in", OPEN_ORDER_STATUSES)
      .executeTakeFirstOrThrow(),
  ]);
  return { carts: toCount(carts.n), holds: toCount(holds.n), openOrders: toCount(orders.n) };
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 carts and 1 open order": what uses them, in words; "" when nothing does. */
export function usageWords(usage: VariantUsage): string {
  const parts = [
    usage.carts ? counted(usage.carts, "cart", "carts") : null,
    usage.holds ? counted(usage.holds, "payment in progress", "payments in progress") : null,
    usage.openOrders ? counted(usage.openOrders, "open order", "open orders") : null,
  ].filter((p): p is string => p !== null);
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/**
 * Refuse (409) deleting what these variants are, when anything uses them: "Velvet is in 3 carts
 * and 1 open order: deactivate its variants instead".
 */
export async function refuseIfUsed(trx: Db, variantIds: number[], what: string, instead: string): Promise<void> {
  const words = usageWords(await usageOf(trx, variantIds));
  if (words) throw new AppError(409, `${what} is in ${words}: ${instead}`);
}
