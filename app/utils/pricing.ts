// The money rules of docs/product.md, in one place. The server computes every total with it;
// the client uses it only to show optimistic totals before the server answers.
export const FREE_SHIPPING_ABOVE = 25000;
export const FLAT_SHIPPING = 1;
export const GST_PERCENT = 18;
export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 99;
/** Different pieces one cart holds at most (an order's lines). */
export const MAX_CART_LINES = 50;
export const MAX_PRODUCT_PAGE_QUANTITY = 10;

export interface PricedLine {
  quantity: number;
  price: number;
}

export interface CartTotals {
  count: number;
  subtotal: number;
  shipping: number;
  gst: number;
  total: number;
}

/** Totals with a coupon's discount: `total` = subtotal − discount + shipping + gst (docs/product.md, Coupons). */
export interface DiscountedTotals extends CartTotals {
  discount: number;
}

/** A coupon's money rule, as the staff set it (models/coupons/ reads it from the coupon). */
export interface DiscountRule {
  kind: "percent" | "fixed";
  /** a percentage from 1 to 100, or whole rupees */
  value: number;
  /** the cart's subtotal (before any discount) must be at least this */
  minSubtotal: number;
  /** the most it takes off, in rupees; null: no cap */
  maxDiscount: number | null;
  /** null: every line is discounted; else only the lines of these categories */
  categoryIds: readonly number[] | null;
}

export interface DiscountLine extends PricedLine {
  categoryId: number;
}

/** What a rule takes off a cart: the amount and each line's share, or why it takes nothing. */
export type DiscountResult =
  | { ok: true; amount: number; lines: number[] }
  | { ok: false; reason: "below-minimum"; missing: number }
  | { ok: false; reason: "not-applicable" };

/** GST on a whole-rupee amount, rounded to the nearest rupee, halves up (integer arithmetic). */
export function gstOn(subtotal: number): number {
  return Math.floor((subtotal * GST_PERCENT * 2 + 100) / 200);
}

export function shippingFor(subtotal: number): number {
  return subtotal === 0 || subtotal > FREE_SHIPPING_ABOVE ? 0 : FLAT_SHIPPING;
}

/**
 * What a return refunds, in whole rupees: the returned units' value and the GST charged on it;
 * when the return brings the order's last units back, whatever of the order's total the earlier
 * returns did not refund (its shipping too). Never more than the total less `refundedBefore`.
 */
export function returnRefund(input: { orderTotal: number; refundedBefore: number; value: number; completesOrder: boolean }): number {
  const left = Math.max(0, input.orderTotal - input.refundedBefore);
  if (input.completesOrder) return left;
  return Math.min(left, input.value + gstOn(input.value));
}

/** Share `amount` over `weights` in proportion, in whole units, summing exactly to `amount` (largest remainder). */
export function shareOut(amount: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * w) / sum);
  const out = exact.map(Math.floor);
  let left = amount - out.reduce((a, b) => a + b, 0);
  const order = exact.map((v, i) => ({ i, rest: v - Math.floor(v) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]! += 1;
    left -= 1;
  }
  return out;
}

/**
 * The discount a coupon's rule gives a cart (docs/product.md, Coupons; ADR 0019). The
 * minimum is on the whole subtotal before the discount, and reached at exactly the minimum. Only
 * the eligible lines (all, or those of the rule's categories) are discounted: a percentage of their
 * value rounded **down** to the rupee (10% of ₹1,999 is ₹199), or the fixed rupees; then at most
 * `maxDiscount`, and never more than the eligible value. The amount is shared over the eligible
 * lines in proportion to their value (largest remainder), so the lines add up to it exactly.
 */
export function couponDiscount(lines: readonly DiscountLine[], rule: DiscountRule): DiscountResult {
  const values = lines.map((l) => l.price * l.quantity);
  const subtotal = values.reduce((a, b) => a + b, 0);
  if (subtotal < rule.minSubtotal) return { ok: false, reason: "below-minimum", missing: rule.minSubtotal - subtotal };
  const categories = rule.categoryIds;
  const eligible = lines.map((l, i) => (categories === null || categories.includes(l.categoryId) ? values[i]! : 0));
  const base = eligible.reduce((a, b) => a + b, 0);
  if (base === 0) return { ok: false, reason: "not-applicable" };
  const raw = rule.kind === "percent" ? Math.floor((base * rule.value) / 100) : rule.value;
  const amount = Math.min(raw, rule.maxDiscount ?? raw, base);
  return { ok: true, amount, lines: shareOut(amount, eligible) };
}

/**
 * Totals after a discount: GST is on the discounted subtotal (a discount shown on the invoice lowers
 * the taxable value), and free shipping is decided on it too (above FREE_SHIPPING_ABOVE after the
 * discount). Without a discount, exactly computeTotals.
 */
export function discountedTotals(lines: readonly PricedLine[], discount: number): DiscountedTotals {
  const totals = computeTotals(lines);
  if (discount <= 0) return { ...totals, discount: 0 };
  const taxable = totals.subtotal - Math.min(discount, totals.subtotal);
  const shipping = taxable > FREE_SHIPPING_ABOVE ? 0 : FLAT_SHIPPING;
  const gst = gstOn(taxable);
  return { ...totals, discount: totals.subtotal - taxable, shipping, gst, total: taxable + shipping + gst };
}

/**
 * A cart's totals with its coupon's rule (none, or one that gives nothing: no discount): the server's, and the cart page's
 * optimistic view.
 */
export function totalsWithCoupon(lines: readonly DiscountLine[], rule: DiscountRule | null): DiscountedTotals {
  const result = rule ? couponDiscount(lines, rule) : null;
  return discountedTotals(lines, result?.ok ? result.amount : 0);
}

/**
 * What `units` of an order line were paid for, before GST: their price less their part of the
 * line's discount, that part rounded **up** (a refund never gives back more than was paid; the
 * return that completes the order refunds whatever is left: returnRefund).
 */
export function paidValue(line: { price: number; quantity: number; discount: number }, units: number): number {
  const share = line.quantity > 0 ? Math.ceil((line.discount * units) / line.quantity) : 0;
  return Math.max(0, units * line.price - share);
}

export function computeTotals(lines: readonly PricedLine[]): CartTotals {
  let count = 0;
  let subtotal = 0;
  for (const line of lines) {
    count += line.quantity;
    subtotal += line.price * line.quantity;
  }
  const shipping = shippingFor(subtotal);
  const gst = gstOn(subtotal);
  return { count, subtotal, shipping, gst, total: subtotal + shipping + gst };
}
