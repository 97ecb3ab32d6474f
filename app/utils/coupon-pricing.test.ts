// The money rule for coupon discounts (docs/product.md, Coupons): the boundaries of the minimum
// subtotal, the maximum discount, free shipping on the discounted subtotal, GST on it, the rounding
// to whole rupees, category-limited coupons, and what a partial return of a discounted line is worth.
import { describe, expect, it } from "vitest";
import { invoiceTaxes } from "./invoice";
import type { DiscountLine, DiscountRule } from "./pricing";
import { computeTotals, couponDiscount, discountedTotals, FREE_SHIPPING_ABOVE, gstOn, paidValue, returnRefund } from "./pricing";

const rule = (over: Partial<DiscountRule> = {}): DiscountRule => ({
  kind: "percent",
  value: 10,
  minSubtotal: 0,
  maxDiscount: null,
  categoryIds: null,
  ...over,
});
const line = (price: number, quantity = 1, categoryId = 1): DiscountLine => ({ price, quantity, categoryId });

describe("couponDiscount: minimum subtotal", () => {
  it("is reached at exactly the minimum, on the subtotal before the discount", () => {
    expect(couponDiscount([line(4999)], rule({ minSubtotal: 5000 }))).toEqual({ ok: false, reason: "below-minimum", missing: 1 });
    expect(couponDiscount([line(5000)], rule({ minSubtotal: 5000 }))).toEqual({ ok: true, amount: 500, lines: [500] });
    expect(couponDiscount([line(2500, 2)], rule({ minSubtotal: 5000 }))).toMatchObject({ ok: true, amount: 500 });
    // Lines outside the coupon's categories count towards the minimum.
    const mixed = [line(3000, 1, 1), line(2000, 1, 2)];
    expect(couponDiscount(mixed, rule({ minSubtotal: 5000, categoryIds: [2] }))).toEqual({ ok: true, amount: 200, lines: [0, 200] });
    expect(couponDiscount([line(1000)], rule({ minSubtotal: 5000 }))).toEqual({ ok: false, reason: "below-minimum", missing: 4000 });
  });
});

describe("couponDiscount: percentage and rounding", () => {
  it("rounds a percentage down to the whole rupee", () => {
    expect(couponDiscount([line(1999)], rule())).toMatchObject({ amount: 199 }); // 199.9 → 199
    expect(couponDiscount([line(9)], rule())).toMatchObject({ amount: 0 }); // 0.9 → 0
    expect(couponDiscount([line(10)], rule())).toMatchObject({ amount: 1 });
    expect(couponDiscount([line(33333)], rule({ value: 15 }))).toMatchObject({ amount: 4999 }); // 4999.95 → 4999
    expect(couponDiscount([line(48999)], rule({ value: 100 }))).toMatchObject({ amount: 48999 });
    for (let price = 1; price < 5000; price += 37) {
      for (const pct of [1, 7, 10, 33, 50, 99]) {
        const got = couponDiscount([line(price, 3)], rule({ value: pct }));
        expect(got).toMatchObject({ ok: true, amount: Math.floor((price * 3 * pct) / 100) });
      }
    }
  });

  it("takes a fixed amount, never more than the eligible value", () => {
    expect(couponDiscount([line(5000)], rule({ kind: "fixed", value: 750 }))).toEqual({ ok: true, amount: 750, lines: [750] });
    expect(couponDiscount([line(500)], rule({ kind: "fixed", value: 750 }))).toEqual({ ok: true, amount: 500, lines: [500] });
  });
});

describe("couponDiscount: maximum discount", () => {
  it("caps the discount at exactly the maximum", () => {
    const capped = rule({ value: 20, maxDiscount: 2000 });
    expect(couponDiscount([line(9995)], capped)).toMatchObject({ amount: 1999 }); // below the cap
    expect(couponDiscount([line(10000)], capped)).toMatchObject({ amount: 2000 }); // at it
    expect(couponDiscount([line(10005)], capped)).toMatchObject({ amount: 2000 }); // 2001 → capped
    expect(couponDiscount([line(48999, 3)], capped)).toMatchObject({ amount: 2000 });
    expect(couponDiscount([line(5000)], rule({ kind: "fixed", value: 3000, maxDiscount: 1000 }))).toMatchObject({ amount: 1000 });
  });
});

describe("couponDiscount: categories", () => {
  it("discounts only the lines of its categories and shares the amount over them exactly", () => {
    const lines = [line(10000, 1, 1), line(3333, 1, 2), line(6667, 1, 2)];
    const got = couponDiscount(lines, rule({ kind: "fixed", value: 1001, categoryIds: [2] }));
    expect(got).toEqual({ ok: true, amount: 1001, lines: [0, 334, 667] });
    const all = couponDiscount(lines, rule({ kind: "fixed", value: 1001 }));
    expect(all.ok && all.lines.reduce((a, b) => a + b, 0)).toBe(1001);
  });

  it("is not applicable when no line is of its categories (or it names none any more)", () => {
    expect(couponDiscount([line(9000, 1, 1)], rule({ categoryIds: [2, 3] }))).toEqual({ ok: false, reason: "not-applicable" });
    expect(couponDiscount([line(9000, 1, 1)], rule({ categoryIds: [] }))).toEqual({ ok: false, reason: "not-applicable" });
    expect(couponDiscount([], rule())).toEqual({ ok: false, reason: "not-applicable" });
  });
});

describe("discountedTotals: shipping and GST on the discounted subtotal", () => {
  it("without a discount is exactly computeTotals", () => {
    for (const lines of [[], [line(25000)], [line(25001)], [line(12500, 2), line(99)]]) {
      expect(discountedTotals(lines, 0)).toEqual({ ...computeTotals(lines), discount: 0 });
    }
  });

  it("decides free shipping after the discount (above ₹25,000 of what is left)", () => {
    expect(FREE_SHIPPING_ABOVE).toBe(25000);
    // ₹26,000 less ₹1,000 = ₹25,000: not above, so shipping is ₹1.
    expect(discountedTotals([line(26000)], 1000)).toEqual({
      count: 1,
      subtotal: 26000,
      discount: 1000,
      shipping: 1,
      gst: 4500,
      total: 25000 + 1 + 4500,
    });
    // ₹999 off: ₹25,001 left, free shipping.
    expect(discountedTotals([line(26000)], 999)).toMatchObject({ shipping: 0, gst: 4500, total: 25001 + 4500 });
    // A subtotal that shipped free before the discount can pay shipping after it.
    expect(computeTotals([line(30000)]).shipping).toBe(0);
    expect(discountedTotals([line(30000)], 6000).shipping).toBe(1);
  });

  it("charges GST on the discounted subtotal, to the nearest rupee, halves up", () => {
    // ₹125 less ₹100 = ₹25: GST 4.5 → 5.
    expect(discountedTotals([line(125)], 100)).toMatchObject({ gst: 5, shipping: 1, total: 25 + 1 + 5 });
    // ₹10,000 less 10% (₹1,000) = ₹9,000: GST ₹1,620.
    expect(discountedTotals([line(10000)], 1000)).toMatchObject({ gst: 1620, total: 9000 + 1 + 1620 });
    for (let subtotal = 100; subtotal < 60000; subtotal += 499) {
      for (const discount of [1, 25, 99, subtotal >> 1, subtotal - 1]) {
        const t = discountedTotals([line(subtotal)], discount);
        expect(t.gst).toBe(gstOn(subtotal - discount));
        expect(t.total).toBe(subtotal - discount + t.shipping + t.gst);
        expect(t.shipping).toBe(subtotal - discount > 25000 ? 0 : 1);
      }
    }
  });

  it("a discount of the whole subtotal leaves shipping and no GST", () => {
    expect(discountedTotals([line(500, 2)], 1000)).toEqual({ count: 2, subtotal: 1000, discount: 1000, shipping: 1, gst: 0, total: 1 });
    expect(discountedTotals([line(500)], 800)).toMatchObject({ discount: 500, total: 1 });
  });
});

describe("a discounted order's invoice and returns", () => {
  it("the invoice's taxable values are the lines less their discount, and their GST adds up to the order's", () => {
    const lines = [
      { title: "Sofa", price: 30000, quantity: 1, categoryId: 1 },
      { title: "Lamp", price: 1999, quantity: 3, categoryId: 2 },
    ];
    const d = couponDiscount(lines, rule({ value: 15, categoryIds: [2] }));
    if (!d.ok) throw new Error("expected a discount");
    expect(d).toEqual({ ok: true, amount: 899, lines: [0, 899] });
    const totals = discountedTotals(lines, d.amount);
    const taxes = invoiceTaxes(
      lines.map((l, i) => ({ ...l, discount: d.lines[i] })),
      totals.gst,
      false,
    );
    expect(taxes.taxable).toBe(totals.subtotal - totals.discount);
    expect(taxes.lines.map((l) => l.discount ?? 0)).toEqual([0, 899]);
    expect(taxes.lines[1]!.taxable).toBe(5997 - 899);
    expect(taxes.igst).toBe(totals.gst);
    expect(taxes.lines.reduce((a, l) => a + l.total, 0) + totals.shipping).toBe(totals.total);
  });

  it("a partial return refunds what was paid for those units, rounded in the shop's favour, and all returns together the total", () => {
    // 3 × ₹1,999 with ₹899 off the line: 1 unit is worth 1,999 − ⌈899/3⌉ = 1,999 − 300 = 1,699.
    const sold = { price: 1999, quantity: 3, discount: 899 };
    expect(paidValue(sold, 1)).toBe(1699);
    expect(paidValue(sold, 3)).toBe(5997 - 899);
    expect(paidValue({ price: 1000, quantity: 2, discount: 0 }, 1)).toBe(1000);
    const total = discountedTotals([{ price: 1999, quantity: 3 }], 899).total;
    let refunded = 0;
    for (let i = 0; i < 3; i++) {
      refunded += returnRefund({ orderTotal: total, refundedBefore: refunded, value: paidValue(sold, 1), completesOrder: i === 2 });
    }
    expect(refunded).toBe(total);
    // Each unit's refund before the last is at most its share of what was paid.
    expect(paidValue(sold, 1) + gstOn(paidValue(sold, 1))).toBeLessThanOrEqual(Math.ceil((total - 1) / 3));
  });
});
