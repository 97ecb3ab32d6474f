// Pieces of an order's page shared by the customer's confirmation and the admin's order view.
import { lineTitle } from "~/utils/variants";
import { Link } from "./Link";
import type { ReactNode } from "react";
import { formatDateTime } from "~/utils/dates";
import { formatPrice } from "~/utils/money";
import { statusLabel } from "~/utils/order-status";
import type { OrderEvent, OrderLine } from "~/models/orders/read.server";
import type { ShippingAddress } from "~/utils/checkout";

export function OrderItemList({ items }: { items: OrderLine[] }) {
  return (
    <ul className="mt-4 divide-y divide-sand-200">
      {items.map((item, i) => (
        <li key={i} className="flex items-center gap-3 py-3">
          <img src={item.imgPath} alt="" width={56} height={56} className="h-14 w-14 shrink-0 rounded-md bg-sand-100 object-cover" />
          <div className="min-w-0 flex-1">
            {item.itemId ? (
              <Link to={`/product/${item.slug}`} className="font-medium hover:underline">
                {lineTitle(item.title, item.variantLabel)}
              </Link>
            ) : (
              <p className="font-medium">{lineTitle(item.title, item.variantLabel)}</p>
            )}
            <p className="text-sm text-stone-600">
              Quantity: {item.quantity} × {formatPrice(item.price)}
            </p>
          </div>
          <p className="font-semibold">{formatPrice(item.price * item.quantity)}</p>
        </li>
      ))}
    </ul>
  );
}

/** A shipping address as every order page writes it, with an optional last line. */
export function AddressLines({
  address: a,
  className,
  nameClassName,
  children,
}: {
  address: ShippingAddress;
  className: string;
  nameClassName: string;
  children?: ReactNode;
}) {
  return (
    <address className={className}>
      <span className={nameClassName}>{a.name}</span>
      <br />
      {a.address}
      <br />
      {a.city}, {a.state} - {a.pincode}
      <br />
      Phone: {a.phone}
      {children ? (
        <>
          <br />
          {children}
        </>
      ) : null}
    </address>
  );
}

export function ShippingAddressCard({ address: a, showEmail }: { address: ShippingAddress; showEmail?: boolean }) {
  return (
    <section aria-labelledby="address-heading" className="card p-5 sm:p-6">
      <h2 id="address-heading" className="text-lg font-semibold">
        Shipping Address
      </h2>
      <AddressLines address={a} className="mt-3 text-sm not-italic leading-6 text-stone-700" nameClassName="font-medium text-ink">
        {showEmail ? <>Email: {a.email}</> : null}
      </AddressLines>
    </section>
  );
}

/** Who moved the order, in the words of whoever is reading. */
function actorText(e: OrderEvent, viewer: "customer" | "admin"): string {
  if (!e.from) return "";
  if (e.actor === "admin") return viewer === "admin" ? " by the shop" : " by Sagwan Living";
  if (e.actor === "customer") return viewer === "admin" ? " by the customer" : " by you";
  return "";
}

export function OrderTimeline({ events, viewer }: { events: OrderEvent[]; viewer: "customer" | "admin" }) {
  return (
    <section aria-labelledby="timeline-heading" className="card p-5 sm:p-6">
      <h2 id="timeline-heading" className="text-lg font-semibold">
        Order Timeline
      </h2>
      <ol className="mt-3 space-y-3 border-l-2 border-sand-200 pl-4 text-sm" data-testid="order-timeline">
        {events.map((e, i) => (
          <li key={i} className="relative">
            <span className="absolute -left-[1.4rem] top-1 h-3 w-3 rounded-full bg-wood-600" aria-hidden="true" />
            <p className="font-medium">
              {e.from ? statusLabel(e.status) : "Order placed"}
              {actorText(e, viewer)}
            </p>
            <p className="text-stone-600">
              <time dateTime={e.at}>{formatDateTime(e.at)}</time>
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
