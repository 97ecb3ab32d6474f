/** The carrier and tracking number the shop recorded when it shipped an order (nothing when none). */
export function ShipmentDetails({
  order,
  className = "",
}: {
  order: { carrier: string | null; trackingNumber: string | null };
  className?: string;
}) {
  if (!order.carrier && !order.trackingNumber) return null;
  return (
    <dl className={`flex flex-wrap gap-x-6 gap-y-1 text-sm ${className}`} data-testid="shipment">
      {order.carrier ? (
        <div className="flex gap-1">
          <dt className="text-stone-600">Carrier:</dt>
          <dd data-testid="carrier">{order.carrier}</dd>
        </div>
      ) : null}
      {order.trackingNumber ? (
        <div className="flex gap-1">
          <dt className="text-stone-600">Tracking number:</dt>
          <dd className="font-mono" data-testid="tracking-number">
            {order.trackingNumber}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
