// The GST tax invoice's arithmetic. GST is 18% of the subtotal less any coupon discount
// (pricing.ts), in whole rupees; here it is shared out over the lines in proportion to their
// taxable value (price × quantity less the line's discount; largest remainder, so the lines add up
// to the order's GST exactly), then split into CGST 9% + SGST 9% when the buyer is in the seller's
// state, or IGST 18% when not.
import { GST_PERCENT, shareOut } from "./pricing";

export { shareOut };

export interface InvoiceInputLine {
  title: string;
  /** the variant's label and SKU, when the line is of a variant */
  variantLabel?: string;
  sku?: string;
  quantity: number;
  price: number;
  /** the line's share of a coupon's discount (rupees), shown on the invoice and off its taxable value */
  discount?: number;
}

export interface InvoiceLine extends InvoiceInputLine {
  taxable: number;
  cgst: number;
  sgst: number;
  igst: number;
  total: number;
}

export interface InvoiceTaxes {
  intraState: boolean;
  lines: InvoiceLine[];
  taxable: number;
  cgst: number;
  sgst: number;
  igst: number;
  gst: number;
}

export function invoiceTaxes(lines: readonly InvoiceInputLine[], gst: number, intraState: boolean): InvoiceTaxes {
  const taxables = lines.map((l) => l.price * l.quantity - (l.discount ?? 0));
  const shares = shareOut(gst, taxables);
  const out = lines.map((line, i) => {
    const lineGst = shares[i]!;
    const cgst = intraState ? Math.ceil(lineGst / 2) : 0;
    const sgst = intraState ? lineGst - cgst : 0;
    return { ...line, taxable: taxables[i]!, cgst, sgst, igst: intraState ? 0 : lineGst, total: taxables[i]! + lineGst };
  });
  const sum = (key: "taxable" | "cgst" | "sgst" | "igst") => out.reduce((a, l) => a + l[key], 0);
  return { intraState, lines: out, taxable: sum("taxable"), cgst: sum("cgst"), sgst: sum("sgst"), igst: sum("igst"), gst };
}

/** The demo shop's GSTIN (Gujarat, state code 24), shown until SHOP_GSTIN is set. */
export const DEMO_GSTIN = "24AAKCS1234F1Z5";

export const HALF_GST_PERCENT = GST_PERCENT / 2;

/** Is the place of supply (the buyer's state) the seller's state? Case and spacing aside. */
export function isIntraState(buyerState: string, sellerState: string): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();
  return norm(buyerState) === norm(sellerState);
}

/** The Indian financial year (April to March) of a date, in India's time zone: "2026-27". */
export function financialYear(iso: string): string {
  const ist = new Date(Date.parse(iso) + 330 * 60 * 1000);
  const year = ist.getUTCFullYear();
  const start = ist.getUTCMonth() >= 3 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, "0")}`;
}

/** SL/2026-27/000042: the shop's prefix, the financial year and the order number. */
export function invoiceNumber(orderId: number, createdAt: string): string {
  return `SL/${financialYear(createdAt)}/${String(orderId).padStart(6, "0")}`;
}
