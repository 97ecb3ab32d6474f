// The order mails, to the account's registered address, queued in the outbox in the transaction of
// the change (app/lib/outbox.server.ts): the confirmation of a new order, and the shipped mail (with
// the carrier and tracking number the shop recorded). Every value is escaped in the HTML part.
import { lineTitle } from "~/utils/variants";
import type { Db } from "~/lib/db.server";
import { escapeHtml, publicOrigin, queueMail } from "~/lib/mail.server";
import { formatLongDate } from "~/utils/dates";
import { formatPrice } from "~/utils/money";
import { paymentLabel } from "~/utils/order-status";
import type { Order } from "./read.server";

const SHOP = "Sagwan Living";

export function orderConfirmationMail(order: Order, customer: { name: string; email: string }) {
  const a = order.shippingAddress;
  const link = `${publicOrigin()}/order-confirmation/${order.id}`;
  const first = customer.name.trim().split(/\s+/)[0] ?? customer.name;
  const lines = order.items.map((i) => `${lineTitle(i.title, i.variantLabel)} × ${i.quantity}: ${formatPrice(i.price * i.quantity)}`);
  const sums: [string, string][] = [
    ["Subtotal", formatPrice(order.subtotal)],
    ...(order.discount > 0 ? [[`Discount (${order.couponCode ?? "coupon"})`, `−${formatPrice(order.discount)}`] as [string, string]] : []),
    ["Shipping", order.shipping === 0 ? "Free" : formatPrice(order.shipping)],
    ["GST (18%)", formatPrice(order.gst)],
    ["Total", formatPrice(order.total)],
  ];
  const address = [a.name, a.address, `${a.city}, ${a.state} - ${a.pincode}`, `Phone: ${a.phone}`];
  const payment = paymentLabel(order);
  const placedOn = formatLongDate(order.createdAt);
  const deliveryBy = formatLongDate(order.estimatedDelivery);
  const thanks = (number: string, on: string) => `Thank you for your order. Order ${number} was placed on ${on} and is being processed.`;
  const { min, max } = order.deliveryDays;
  const delivery = (on: string) => `Estimated delivery: ${on} (Standard Delivery, delivered within ${min}-${max} business days).`;
  const text = [
    `Hello ${first},`,
    thanks(`#${order.id}`, placedOn),
    delivery(deliveryBy),
    lines.join("\n"),
    sums.map(([label, value]) => `${label}: ${value}`).join("\n"),
    `Payment: ${payment}`,
    `Shipping to:\n${address.join("\n")}`,
    `See your order and its invoice: ${link}`,
  ].join("\n\n");
  const row = (l: string, r: string) =>
    `<tr><td style="padding:4px 12px 4px 0">${escapeHtml(l)}</td><td style="padding:4px 0;text-align:right">${escapeHtml(r)}</td></tr>`;
  const html = [
    `<p>Hello ${escapeHtml(first)},</p>`,
    `<p>${thanks(`<strong>#${order.id}</strong>`, escapeHtml(placedOn))}</p>`,
    `<p>${delivery(escapeHtml(deliveryBy))}</p>`,
    `<table>${order.items
      .map((i) => row(`${lineTitle(i.title, i.variantLabel)} × ${i.quantity}`, formatPrice(i.price * i.quantity)))
      .join("")}</table>`,
    `<table>${sums.map(([label, value]) => row(label, value)).join("")}</table>`,
    `<p>Payment: ${escapeHtml(payment)}</p>`,
    `<p>Shipping to:<br>${address.map(escapeHtml).join("<br>")}</p>`,
    `<p><a href="${escapeHtml(link)}">See your order and its invoice</a></p>`,
  ].join("\n");
  return { to: customer.email, subject: `${SHOP}: order #${order.id} confirmed`, text, html };
}

/** Queued in the order's transaction; a failed send is retried by the worker and never undoes the order. */
export function queueOrderConfirmation(db: Db, order: Order, customer: { name: string; email: string }) {
  return queueMail(db, orderConfirmationMail(order, customer));
}

/** The shipment's line: the carrier and tracking number the shop recorded, when it did. */
export function shipmentLine(order: Pick<Order, "carrier" | "trackingNumber">): string | null {
  if (!order.carrier && !order.trackingNumber) return null;
  if (!order.trackingNumber) return `Carrier: ${order.carrier}`;
  return `${order.carrier ? `Carrier: ${order.carrier}, tracking` : "Tracking"} number: ${order.trackingNumber}`;
}

/** 'Your order has shipped': sent when the shop marks an order shipped, with its carrier and tracking number. */
export function orderShippedMail(order: Order, customer: { name: string; email: string }) {
  const link = `${publicOrigin()}/orders`;
  const first = customer.name.trim().split(/\s+/)[0] ?? customer.name;
  const shipment = shipmentLine(order);
  const lines = order.items.map((i) => `${lineTitle(i.title, i.variantLabel)} × ${i.quantity}`);
  const text = [
    `Hello ${first},`,
    `Your order #${order.id} has shipped.`,
    ...(shipment ? [shipment] : []),
    lines.join("\n"),
    `See your orders: ${link}`,
  ].join("\n\n");
  const html = [
    `<p>Hello ${escapeHtml(first)},</p>`,
    `<p>Your order <strong>#${order.id}</strong> has shipped.</p>`,
    ...(shipment ? [`<p data-shipment>${escapeHtml(shipment)}</p>`] : []),
    `<p>${lines.map(escapeHtml).join("<br>")}</p>`,
    `<p><a href="${escapeHtml(link)}">See your orders</a></p>`,
  ].join("\n");
  return { to: customer.email, subject: `${SHOP}: order #${order.id} has shipped`, text, html };
}

/** Queued in the status change's transaction. */
export function queueShippedMail(db: Db, order: Order, customer: { name: string; email: string }) {
  return queueMail(db, orderShippedMail(order, customer));
}
