import type { CartTotals } from "~/utils/pricing";
import { formatPrice } from "~/utils/money";

/**
 * Subtotal, Discount (a coupon's, its own line), Shipping, GST and Total, the same on the cart,
 * checkout, confirmation and admin order pages.
 */
export function OrderTotals({
  totals,
  gstLabel = "GST",
  className = "",
}: {
  totals: Omit<CartTotals, "count"> & { discount?: number; couponCode?: string | null };
  gstLabel?: string;
  className?: string;
}) {
  const discount = totals.discount ?? 0;
  return (
    <dl className={`space-y-3 text-sm ${className}`}>
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd data-testid="subtotal">{formatPrice(totals.subtotal)}</dd>
      </div>
      {discount > 0 ? (
        <div className="flex justify-between text-green-800">
          <dt>Discount{totals.couponCode ? ` (${totals.couponCode})` : ""}</dt>
          <dd data-testid="discount">−{formatPrice(discount)}</dd>
        </div>
      ) : null}
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
