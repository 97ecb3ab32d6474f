import { describe, expect, it } from "vitest";
import { financialYear, HALF_GST_PERCENT, type InvoiceInputLine, invoiceNumber, invoiceTaxes, isIntraState, shareOut } from "./invoice";
import { computeTotals, GST_PERCENT, gstOn } from "./pricing";

/** mulberry32: a tiny seeded PRNG, so every run checks the same "random" cases. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [min, max]. */
const intIn = (rand: () => number, min: number, max: number) => min + Math.floor(rand() * (max - min + 1));

function randomLines(rand: () => number): InvoiceInputLine[] {
  return Array.from({ length: intIn(rand, 1, 8) }, (_, i) => ({
    title: `Item ${i}`,
    quantity: intIn(rand, 1, 99),
    price: intIn(rand, 1, 250_000),
  }));
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe("shareOut", () => {
  it("shares in proportion when it divides evenly", () => {
    expect(shareOut(100, [1, 1, 2])).toEqual([25, 25, 50]);
    expect(shareOut(1800, [10_000])).toEqual([1800]);
    expect(shareOut(0, [5, 7])).toEqual([0, 0]);
  });

  it("gives the remainder to the largest fractions, ties to the earlier line", () => {
    expect(shareOut(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(shareOut(1, [1, 1])).toEqual([1, 0]);
    // exact shares 3.3, 2.2, 4.5: floors 3, 2, 4 and the one left goes to the .5
    expect(shareOut(10, [33, 22, 45])).toEqual([3, 2, 5]);
  });

  it("all-zero weights give zeros; no weights give nothing", () => {
    expect(shareOut(50, [0, 0])).toEqual([0, 0]);
    expect(shareOut(50, [])).toEqual([]);
  });

  it("property: over 2,000 random cases the shares sum exactly and each is the floor or ceiling of its exact share", () => {
    const rand = prng(20260401);
    const problems: string[] = [];
    for (let n = 0; n < 2000; n++) {
      const weights = Array.from({ length: intIn(rand, 1, 12) }, () => (rand() < 0.1 ? 0 : intIn(rand, 1, 25_000_000)));
      if (sum(weights) === 0) weights[0] = 1;
      const amount = intIn(rand, 0, 5_000_000);
      const shares = shareOut(amount, weights);
      const total = sum(weights);
      const bad = (why: string) => problems.push(`${why}: shareOut(${amount}, [${weights.join(", ")}]) = [${shares.join(", ")}]`);
      if (shares.length !== weights.length) bad("length");
      if (sum(shares) !== amount) bad("sum");
      shares.forEach((share, i) => {
        const exact = (amount * weights[i]!) / total;
        if (!Number.isInteger(share)) bad(`line ${i} not whole`);
        if (share < Math.floor(exact) || share > Math.ceil(exact)) bad(`line ${i} not proportional`);
        if (weights[i] === 0 && share !== 0) bad(`line ${i} has no weight`);
        // A heavier line never gets less than a lighter one.
        weights.forEach((w, j) => {
          if (weights[i]! > w && share < shares[j]!) bad(`line ${i} heavier than ${j} but gets less`);
        });
      });
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });
});

describe("invoiceTaxes", () => {
  const oneLine: InvoiceInputLine[] = [{ title: "Sheesham coffee table", quantity: 1, price: 10_000 }];

  it("₹10,000 with GST 1,800 within the state: CGST 900 + SGST 900, no IGST", () => {
    const t = invoiceTaxes(oneLine, 1800, true);
    expect(t).toMatchObject({ intraState: true, taxable: 10_000, cgst: 900, sgst: 900, igst: 0, gst: 1800 });
    expect(t.lines).toEqual([{ ...oneLine[0], taxable: 10_000, cgst: 900, sgst: 900, igst: 0, total: 11_800 }]);
  });

  it("₹10,000 with GST 1,800 to another state: IGST 1,800 only", () => {
    const t = invoiceTaxes(oneLine, 1800, false);
    expect(t).toMatchObject({ intraState: false, taxable: 10_000, cgst: 0, sgst: 0, igst: 1800, gst: 1800 });
    expect(t.lines).toEqual([{ ...oneLine[0], taxable: 10_000, cgst: 0, sgst: 0, igst: 1800, total: 11_800 }]);
  });

  it("rates: 18% GST, halves of 9%", () => {
    expect(GST_PERCENT).toBe(18);
    expect(HALF_GST_PERCENT).toBe(9);
  });

  it("an odd line GST is split into halves one rupee apart", () => {
    const t = invoiceTaxes([{ title: "Stool", quantity: 1, price: 1_001 }], 181, true);
    expect(t.lines[0]!.cgst + t.lines[0]!.sgst).toBe(181);
    expect(Math.abs(t.lines[0]!.cgst - t.lines[0]!.sgst)).toBe(1);
  });

  it("keeps the lines' titles, quantities and prices, with taxable = price × quantity", () => {
    const lines = [
      { title: "Chair", quantity: 4, price: 3_499 },
      { title: "Table", quantity: 1, price: 24_999 },
    ];
    const t = invoiceTaxes(lines, gstOn(4 * 3_499 + 24_999), true);
    expect(t.lines.map(({ title, quantity, price, taxable }) => ({ title, quantity, price, taxable }))).toEqual([
      { ...lines[0], taxable: 13_996 },
      { ...lines[1], taxable: 24_999 },
    ]);
    expect(t.taxable).toBe(38_995);
  });

  it("property: within the state, CGST + SGST of each line is its GST share; totals add up to the order's GST", () => {
    const rand = prng(42);
    const problems: string[] = [];
    for (let n = 0; n < 500; n++) {
      const lines = randomLines(rand);
      const subtotal = sum(lines.map((l) => l.price * l.quantity));
      const gst = gstOn(subtotal);
      const shares = shareOut(
        gst,
        lines.map((l) => l.price * l.quantity),
      );
      const intra = invoiceTaxes(lines, gst, true);
      const inter = invoiceTaxes(lines, gst, false);
      const bad = (why: string) => problems.push(`${why}: ${JSON.stringify(lines)} gst ${gst}`);

      intra.lines.forEach((line, i) => {
        if (line.cgst + line.sgst !== shares[i]) bad(`intra line ${i}: cgst + sgst is not the line's GST`);
        if (line.cgst - line.sgst < 0 || line.cgst - line.sgst > 1) bad(`intra line ${i}: halves uneven`);
        if (line.igst !== 0) bad(`intra line ${i}: IGST`);
        if (line.total !== line.taxable + shares[i]!) bad(`intra line ${i}: total`);
      });
      if (intra.igst !== 0 || intra.cgst + intra.sgst !== gst || intra.gst !== gst || intra.taxable !== subtotal) bad("intra totals");

      inter.lines.forEach((line, i) => {
        if (line.cgst !== 0 || line.sgst !== 0 || line.igst !== shares[i]) bad(`inter line ${i}`);
      });
      if (inter.cgst !== 0 || inter.sgst !== 0 || inter.igst !== gst || inter.gst !== gst || inter.taxable !== subtotal)
        bad("inter totals");
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });

  it("cross-check with pricing: for random subtotals the invoice's taxes total gstOn(subtotal), as computeTotals charges", () => {
    const rand = prng(7);
    for (let n = 0; n < 500; n++) {
      const lines = randomLines(rand);
      const totals = computeTotals(lines);
      expect(totals.gst).toBe(gstOn(totals.subtotal));
      const intra = invoiceTaxes(lines, gstOn(totals.subtotal), true);
      expect(intra.cgst + intra.sgst + intra.igst).toBe(gstOn(totals.subtotal));
      expect(sum(intra.lines.map((l) => l.total))).toBe(totals.subtotal + totals.gst);
      const inter = invoiceTaxes(lines, gstOn(totals.subtotal), false);
      expect(inter.cgst + inter.sgst + inter.igst).toBe(gstOn(totals.subtotal));
    }
  });
});

describe("isIntraState", () => {
  it("ignores case and spacing", () => {
    expect(isIntraState("Gujarat", "Gujarat")).toBe(true);
    expect(isIntraState("  gujarat ", "GUJARAT")).toBe(true);
    expect(isIntraState("tamil   nadu", "Tamil Nadu")).toBe(true);
  });

  it("different states are inter-state", () => {
    expect(isIntraState("Maharashtra", "Gujarat")).toBe(false);
    expect(isIntraState("TamilNadu", "Tamil Nadu")).toBe(false);
    expect(isIntraState("", "Gujarat")).toBe(false);
  });
});

describe("financialYear (April to March, in India's time)", () => {
  it.each([
    ["2026-11-22T10:00:00Z", "2026-27"],
    ["2027-03-31T20:00:00Z", "2027-28"], // 01:30 on 1 April in IST
    ["2026-03-31T10:00:00Z", "2025-26"],
    ["2026-03-31T18:29:59Z", "2025-26"], // 23:59:59 on 31 March in IST
    ["2026-03-31T18:30:00Z", "2026-27"], // midnight, 1 April in IST
    ["2026-04-01T00:00:00+05:30", "2026-27"],
    ["2026-01-01T00:00:00Z", "2025-26"],
    ["2026-12-31T23:00:00Z", "2026-27"], // already 2027 in IST, still the same year
    ["2099-06-01T00:00:00Z", "2099-00"],
    ["2009-05-01T00:00:00Z", "2009-10"],
  ])("%s is %s", (iso, fy) => {
    expect(financialYear(iso)).toBe(fy);
  });
});

describe("invoiceNumber", () => {
  it("is SL/<financial year>/<order id, 6 digits>", () => {
    expect(invoiceNumber(42, "2026-11-22T10:00:00Z")).toBe("SL/2026-27/000042");
    expect(invoiceNumber(1, "2026-03-31T10:00:00Z")).toBe("SL/2025-26/000001");
    expect(invoiceNumber(123456, "2027-03-31T20:00:00Z")).toBe("SL/2027-28/123456");
    expect(invoiceNumber(1234567, "2026-11-22T10:00:00Z")).toBe("SL/2026-27/1234567");
  });
});
