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

// ---- returns (ADR 0025) -----------------------------------------------------------------

export const RETURN_STATUSES = ["requested", "approved", "rejected", "returned"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** A return's states, and who moves it: the customer asks; the shop approves or rejects, then receives the goods. */
export const RETURN_TRANSITIONS: Record<ReturnStatus, Partial<Record<ReturnStatus, readonly Actor[]>>> = {
  requested: { approved: ["admin"], rejected: ["admin"] },
  approved: { returned: ["admin"] },
  rejected: {},
  returned: {},
};

export const RETURN_LABEL: Record<ReturnStatus, string> = {
  requested: "Return requested",
  approved: "Return approved",
  rejected: "Return rejected",
  returned: "Returned",
};

/** Damaged or defective pieces are taken back when reported within this many hours of delivery (the policies). */
export const RETURN_WINDOW_HOURS = 48;

/** When a return may no longer be asked for: RETURN_WINDOW_HOURS after the delivery. */
export function returnWindowEnd(deliveredAt: string): string {
  return new Date(Date.parse(deliveredAt) + RETURN_WINDOW_HOURS * 60 * 60 * 1000).toISOString();
}

/** May `actor` move a return from `from` to `to`? 409 when no one may, 403 when only the shop may. */
export function checkReturnTransition(from: ReturnStatus, to: ReturnStatus, actor: Actor): TransitionCheck {
  const allowed = RETURN_TRANSITIONS[from][to];
  if (!allowed) {
    if (from === to) return { ok: false, status: 409, message: `This return is already ${RETURN_LABEL[to].toLowerCase()}` };
    const [was, next] = [RETURN_LABEL[from].toLowerCase(), RETURN_LABEL[to].toLowerCase()];
    return { ok: false, status: 409, message: `A return that is ${was} cannot become ${next}` };
  }
  if (allowed.includes(actor)) return { ok: true };
  return { ok: false, status: 403, message: "Only the shop can decide on a return" };
}

/** Badge colours (docs/product.md): processing yellow, shipped blue, delivered green, cancelled red; anything else yellow. */
export function statusBadgeClass(status: string): string {
  switch (status) {
    case "shipped":
      return "bg-blue-100 text-blue-800 ring-blue-200";
    case "delivered":
      return "bg-green-100 text-green-800 ring-green-200";
    case "cancelled":
    case "rejected":
      return "bg-red-100 text-red-800 ring-red-200";
    case "returned":
    case "approved":
      return "bg-stone-100 text-stone-800 ring-stone-300";
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

/**
 * Revenue is the totals of the orders that were not cancelled (docs/product.md, Dashboard): the
 * one rule the dashboard's cards, its Quick Stats and its charts all count by.
 */
export const NOT_REVENUE: readonly OrderStatus[] = ["cancelled"];
export const countsAsRevenue = (status: OrderStatus): boolean => !NOT_REVENUE.includes(status);
