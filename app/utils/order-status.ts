// The order status rules, in one place: which changes are allowed, and to whom. Pages, the API
// and the admin area all ask `checkTransition`; the badge colours live here too.
export const ORDER_STATUSES = ["processing", "shipped", "delivered", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type Actor = "customer" | "admin";

/** Each status, the statuses it may move to, and who may make that move. */
export const TRANSITIONS: Record<OrderStatus, Partial<Record<OrderStatus, readonly Actor[]>>> = {
  processing: { shipped: ["admin"], cancelled: ["customer", "admin"] },
  shipped: { delivered: ["admin"], cancelled: ["admin"] },
  delivered: {},
  cancelled: {},
};

export type TransitionCheck = { ok: true } | { ok: false; status: 403 | 409; message: string };

export const STATUS_LABEL: Record<OrderStatus, string> = {
  processing: "Processing",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled: "Cancelled",
};

/**
 * May `actor` move an order from `from` to `to`? 409 when no one may (or the customer's
 * cancellation comes too late: the order has shipped), 403 when only the shop may.
 */
export function checkTransition(from: OrderStatus, to: OrderStatus, actor: Actor): TransitionCheck {
  if (from === to) return { ok: false, status: 409, message: `This order is already ${to}` };
  const allowed = TRANSITIONS[from][to];
  if (!allowed) {
    if (from === "delivered" || from === "cancelled") {
      return { ok: false, status: 409, message: `This order is ${from}; its status can no longer change` };
    }
    return { ok: false, status: 409, message: `An order cannot go from ${from} to ${to}` };
  }
  if (allowed.includes(actor)) return { ok: true };
  if (to === "cancelled") {
    return { ok: false, status: 409, message: "Only processing orders can be cancelled. This order has already shipped." };
  }
  return { ok: false, status: 403, message: "Only the shop can change an order's status to " + to };
}

/** The statuses an actor may move an order to from where it is (for menus and buttons). */
export function nextStatuses(from: OrderStatus, actor: Actor): OrderStatus[] {
  return ORDER_STATUSES.filter((to) => checkTransition(from, to, actor).ok);
}

/** Badge colours (docs/product.md): processing yellow, shipped blue, delivered green, cancelled red; anything else yellow. */
export function statusBadgeClass(status: string): string {
  switch (status) {
    case "shipped":
      return "bg-blue-100 text-blue-800 ring-blue-200";
    case "delivered":
      return "bg-green-100 text-green-800 ring-green-200";
    case "cancelled":
      return "bg-red-100 text-red-800 ring-red-200";
    default:
      return "bg-yellow-100 text-yellow-800 ring-yellow-200";
  }
}

export function statusLabel(status: string): string {
  return Object.hasOwn(STATUS_LABEL, status) ? STATUS_LABEL[status as OrderStatus] : status;
}

/** How an order was paid, in words (one place for the confirmation, invoice and mail). */
export function paymentLabel(order: { paymentMethod: string; testPayment?: boolean }): string {
  if (order.paymentMethod !== "online") return "Cash on Delivery";
  return order.testPayment ? "Paid online (test payment: no money was taken)" : "Paid online";
}
