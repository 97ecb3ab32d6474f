// What a cart must be to become an order, checked when it is placed and when it is paid for: its
// lines orderable (in stock for this customer, not too many), and for an order whose money is not
// taken (cash on delivery, a test payment) the limits of COD_LIMITS.
import type { Db } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { TEST_MARKER } from "~/lib/payments.server";
import { COD_LIMITS, COD_MESSAGES, TEST_PAYMENT_MESSAGES } from "~/utils/checkout";
import { MAX_CART_LINES } from "~/utils/pricing";
import { CART_FULL } from "~/models/cart.server";
import { assertStock, lockCartItems, withAvailability } from "~/models/reservations.server";
import { variantLabels } from "~/models/catalogue/variants.server";
import { lineTitle } from "~/utils/variants";

export const EMPTY_CART = "Your cart is empty";
export const CART_CHANGED = "Your cart changed since this page was loaded. Please review your order and place it again.";

/**
 * A cart's lines with the catalogue's prices and stock, in item id order, refused when the cart
 * is empty (400) or a line cannot be ordered (409): more than its customer may have, the stock
 * less what other customers hold while they pay (`userId`; null counts everyone's holds).
 * Placing an order and paying for one both read it; inside their transaction they `lock` the
 * products first (reservations.server's lockCartItems), so what they read stays true until commit.
 */
export async function orderableLines(
  db: Db,
  cartId: string | null,
  customer: { userId: number | null; lock?: boolean } = { userId: null },
) {
  if (cartId && customer.lock) await lockCartItems(db, cartId);
  const rows = cartId
    ? await db
        .selectFrom("cartLines")
        .innerJoin("items", "items.id", "cartLines.itemId")
        .innerJoin("productVariants as v", "v.id", "cartLines.variantId")
        .select((eb) => [
          "items.id as itemId",
          "v.id as variantId",
          "v.sku",
          "items.title as productTitle",
          "items.slug",
          "items.imgPath",
          "v.price",
          "items.categoryId",
          // A variant no longer sold has none to sell.
          eb.case().when("v.active", "=", 1).then(eb.ref("v.stock")).else(0).end().as("stock"),
          "cartLines.quantity",
        ])
        .where("cartLines.cartId", "=", cartId)
        .orderBy("items.id")
        .orderBy("v.id")
        .execute()
    : [];
  if (rows.length === 0) throw new AppError(400, EMPTY_CART, { code: "EMPTY_CART" });
  if (rows.length > MAX_CART_LINES) throw new AppError(409, CART_FULL);
  const labels = await variantLabels(
    db,
    rows.map((r) => r.variantId),
  );
  const named = rows.map((r) => {
    const variantLabel = labels.get(r.variantId) ?? "";
    return { ...r, variantLabel, title: lineTitle(r.productTitle, variantLabel) };
  });
  const lines = await withAvailability(db, named, customer.userId);
  for (const line of lines) assertStock({ title: line.title, stock: line.available, quantity: line.quantity, held: line.held }, "ordering");
  return lines;
}

/**
 * COD_LIMITS for an order whose money is not taken: cash on delivery, or a payment on the offline
 * test gateway (`how`: whose messages). Checked inside the transaction once the customer's cart
 * is locked, so two placements at once count each other; the open orders counted are both kinds.
 * Starting a test payment checks them too, before its units are held.
 */
export async function assertUnpaidAllowed(
  trx: Db,
  userId: number,
  lines: { title: string; quantity: number }[],
  total: number,
  how: "cod" | "test",
): Promise<void> {
  const messages = how === "cod" ? COD_MESSAGES : TEST_PAYMENT_MESSAGES;
  const bulky = lines.find((line) => line.quantity > COD_LIMITS.unitsPerPiece);
  if (bulky) throw new AppError(400, messages.tooManyUnits(bulky.title));
  if (total > COD_LIMITS.maxTotal) throw new AppError(400, messages.tooLarge);
  const open = await trx
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("userId", "=", userId)
    .where((eb) => eb.or([eb("paymentMethod", "=", "cod"), eb("paymentId", "like", `pay_${TEST_MARKER}%`)]))
    .where("status", "=", "processing")
    .executeTakeFirstOrThrow();
  if (Number(open.n) >= COD_LIMITS.openOrders) throw new AppError(409, messages.tooManyOpen);
}
