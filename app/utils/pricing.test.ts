import { describe, expect, it } from "vitest";
import {
  computeTotals,
  FLAT_SHIPPING,
  FREE_SHIPPING_ABOVE,
  GST_PERCENT,
  gstOn,
  MAX_QUANTITY,
  MIN_QUANTITY,
  returnRefund,
  shippingFor,
} from "./pricing";

/** Nearest rupee of 18% of s, halves up, with integer maths only (reference for docs/product.md). */
function referenceGst(s: number): number {
  const hundredths = s * 18; // exact: s is a safe integer well below 2^53 / 18
  const whole = Math.floor(hundredths / 100);
  const rest = hundredths - whole * 100;
  return rest >= 50 ? whole + 1 : whole;
}

describe("money constants (docs/product.md)", () => {
  it("match docs/product.md", () => {
    expect(FREE_SHIPPING_ABOVE).toBe(25000);
    expect(FLAT_SHIPPING).toBe(1);
    expect(GST_PERCENT).toBe(18);
    expect(MIN_QUANTITY).toBe(1);
    expect(MAX_QUANTITY).toBe(99);
  });
});

describe("computeTotals", () => {
  it("an empty cart is all zeros, shipping included", () => {
    expect(computeTotals([])).toEqual({ count: 0, subtotal: 0, shipping: 0, gst: 0, total: 0 });
  });

  it("a subtotal of exactly 25,000 pays shipping 1", () => {
    const t = computeTotals([{ price: 25000, quantity: 1 }]);
    expect(t).toEqual({ count: 1, subtotal: 25000, shipping: 1, gst: 4500, total: 29501 });
  });

  it("a subtotal of 25,001 ships free", () => {
    const t = computeTotals([{ price: 25001, quantity: 1 }]);
    expect(t.shipping).toBe(0);
    expect(t.gst).toBe(4500); // 4500.18 → 4500
    expect(t.total).toBe(25001 + 0 + 4500);
  });

  it("a small subtotal pays shipping 1", () => {
    expect(computeTotals([{ price: 1, quantity: 1 }]).shipping).toBe(1);
    expect(computeTotals([{ price: 9999, quantity: 2 }]).shipping).toBe(1);
    expect(computeTotals([{ price: 12500, quantity: 2 }]).shipping).toBe(1); // 25,000
    expect(
      computeTotals([
        { price: 12500, quantity: 1 },
        { price: 12501, quantity: 1 },
      ]).shipping,
    ).toBe(0);
  });

  it.each([
    [25, 5], // 4.5 → 5 (half up)
    [75, 14], // 13.5 → 14
    [125, 23], // 22.5 → 23
    [1, 0], // 0.18 → 0
    [2, 0], // 0.36 → 0
    [3, 1], // 0.54 → 1
    [10, 2], // 1.8 → 2
    [48999, 8820], // 8819.82 → 8820
    [9999, 1800], // 1799.82 → 1800
    [100, 18],
  ])("GST on %d is %d", (subtotal, gst) => {
    const t = computeTotals([{ price: subtotal, quantity: 1 }]);
    expect(t.gst).toBe(gst);
    expect(gstOn(subtotal)).toBe(gst);
  });

  it("count is the number of units and the subtotal sums price × quantity", () => {
    const t = computeTotals([
      { price: 42999, quantity: 2 },
      { price: 9999, quantity: 3 },
      { price: 12499, quantity: 1 },
    ]);
    expect(t.count).toBe(6);
    expect(t.subtotal).toBe(42999 * 2 + 9999 * 3 + 12499);
    expect(t.shipping).toBe(0);
    expect(t.gst).toBe(referenceGst(t.subtotal));
    expect(t.total).toBe(t.subtotal + t.shipping + t.gst);
  });

  it("total = subtotal + shipping + gst for many carts", () => {
    for (let price = 1; price < 60000; price += 997) {
      for (const quantity of [1, 2, 7, 99]) {
        const t = computeTotals([
          { price, quantity },
          { price: 13, quantity: 1 },
        ]);
        const subtotal = price * quantity + 13;
        expect(t.subtotal).toBe(subtotal);
        expect(t.count).toBe(quantity + 1);
        expect(t.shipping).toBe(subtotal > 25000 ? 0 : 1);
        expect(t.gst).toBe(referenceGst(subtotal));
        expect(t.total).toBe(t.subtotal + t.shipping + t.gst);
        expect(Number.isInteger(t.total)).toBe(true);
      }
    }
  });
});

describe("shippingFor", () => {
  it("is 0 for 0 and above 25,000, else 1", () => {
    expect(shippingFor(0)).toBe(0);
    expect(shippingFor(1)).toBe(1);
    expect(shippingFor(24999)).toBe(1);
    expect(shippingFor(25000)).toBe(1);
    expect(shippingFor(25001)).toBe(0);
    expect(shippingFor(10_000_000)).toBe(0);
  });
});

describe("gstOn (property: equals 18% rounded half up, by exact integer maths)", () => {
  it("agrees with the reference for every subtotal 0..60,000 and a spread of large ones", () => {
    for (let s = 0; s <= 60000; s++) {
      const expected = referenceGst(s);
      if (gstOn(s) !== expected) expect(gstOn(s), `subtotal ${s}`).toBe(expected);
    }
    // Large carts: 99 units of the dearest product and beyond.
    for (let s = 60000; s <= 50_000_000; s += 7919) {
      const expected = referenceGst(s);
      if (gstOn(s) !== expected) expect(gstOn(s), `subtotal ${s}`).toBe(expected);
    }
  });

  it("halves always round up (every s ≡ 25 mod 50 gives x.5)", () => {
    for (let s = 25; s < 100000; s += 50) {
      // 0.18 * s = 9s/50: its fraction is exactly .5 iff 9s ≡ 25 (mod 50), i.e. s ≡ 25 (mod 50)
      expect((s * 18) % 100).toBe(50);
      expect(gstOn(s)).toBe((s * 18 + 50) / 100);
    }
  });

  it("agrees with Math.round(s*18/100) where that float maths is exact enough", () => {
    for (let s = 0; s <= 20000; s++) {
      const expected = Math.round((s * 18) / 100);
      if (gstOn(s) !== expected) expect(gstOn(s), `subtotal ${s}`).toBe(expected);
    }
  });
});

describe("returnRefund", () => {
  it("refunds the units' value and its GST, the rest of the total for the last units, never more than was paid", () => {
    expect(returnRefund({ orderTotal: 35401, refundedBefore: 0, value: 15000, completesOrder: false })).toBe(15000 + gstOn(15000));
    // 2 × ₹9,000: ₹18,000, ₹1 shipping (not above ₹25,000), ₹3,240 GST.
    const total = 18000 + 1 + gstOn(18000);
    const first = returnRefund({ orderTotal: total, refundedBefore: 0, value: 9000, completesOrder: false });
    const last = returnRefund({ orderTotal: total, refundedBefore: first, value: 9000, completesOrder: true });
    expect(first + last).toBe(total);
    expect(last).toBe(9000 + gstOn(9000) + 1);
    // Halves: GST on ₹2,475 is ₹445.5 → ₹446 each; three returns of one unit of 3 cannot pass the total.
    const odd = computeTotals([{ price: 2475, quantity: 3 }]).total;
    let refunded = 0;
    for (let i = 0; i < 3; i++)
      refunded += returnRefund({ orderTotal: odd, refundedBefore: refunded, value: 2475, completesOrder: i === 2 });
    expect(refunded).toBe(odd);
    expect(returnRefund({ orderTotal: 100, refundedBefore: 100, value: 50, completesOrder: false })).toBe(0);
    expect(returnRefund({ orderTotal: 1000, refundedBefore: 900, value: 500, completesOrder: false })).toBe(100);
  });
});
