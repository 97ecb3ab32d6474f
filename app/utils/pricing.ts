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
