import type { CartTotals } from "~/utils/pricing";
import { formatPrice } from "~/utils/money";

/** Subtotal, Shipping, GST and Total, the same on the cart, checkout, confirmation and invoice. */
export function OrderTotals({
  totals,
  gstLabel = "GST",
  className = "",
}: {
  totals: Omit<CartTotals, "count">;
  gstLabel?: string;
  className?: string;
}) {
  return (
    <dl className={`space-y-3 text-sm ${className}`}>
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd data-testid="subtotal">{formatPrice(totals.subtotal)}</dd>
      </div>
      <div className="flex justify-between">
        <dt>Shipping</dt>
        <dd data-testid="shipping">{totals.shipping === 0 ? "Free" : formatPrice(totals.shipping)}</dd>
      </div>
      <div className="flex justify-between">
        <dt>{gstLabel}</dt>
        <dd data-testid="gst">{formatPrice(totals.gst)}</dd>
      </div>
      <div className="flex justify-between border-t border-sand-200 pt-3 text-base font-semibold">
        <dt>Total</dt>
        <dd data-testid="total">{formatPrice(totals.total)}</dd>
      </div>
    </dl>
  );
}
