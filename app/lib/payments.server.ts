// The payment gateway: real Razorpay when RAZORPAY_KEY_ID/SECRET are set, otherwise the
// offline test gateway (docs/api.md), whose key secret is TEST_GATEWAY_SECRET or generated once
// (app/lib/secrets.server.ts). Both sign a payment exactly as Razorpay does (HMAC-SHA256 of "order_id|payment_id",
// hex) and both are checked by `isValidPaymentSignature`, one code path, timing-safe.
import crypto from "node:crypto";
import { env } from "./env.server";
import { AppError } from "./errors.server";
import { secret } from "./secrets.server";
import { log } from "./log.server";

export type PaymentMode = "razorpay" | "offline";

export function paymentMode(): PaymentMode {
  return env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET ? "razorpay" : "offline";
}

/** The key secret signatures are made and checked with. */
function keySecret(): string {
  return env.RAZORPAY_KEY_SECRET ?? secret("offline-gateway");
}

/** The secret of webhook signatures: Razorpay's dashboard setting, else the test gateway's (TEST_GATEWAY_WEBHOOK_SECRET or generated). */
function webhookSecret(): string {
  return env.RAZORPAY_WEBHOOK_SECRET ?? secret("offline-gateway-webhook");
}

export function publicKeyId(): string | null {
  return paymentMode() === "razorpay" ? env.RAZORPAY_KEY_ID! : null;
}

function hmacHex(secret: string, payload: string): string {
  return crypto.createHmac("sha256", secret).update(payload).digest("hex");
}

/** Constant-time comparison of two hex signatures (a wrong length or non-hex value is simply false). */
function sameHex(expected: string, given: string): boolean {
  if (!/^[0-9a-f]+$/i.test(given) || given.length !== expected.length) return false;
  return crypto.timingSafeEqual(Buffer.from(expected, "hex"), Buffer.from(given.toLowerCase(), "hex"));
}

/** Razorpay's payment signature of an order and payment: what Checkout hands the browser. */
export function signPayment(orderId: string, paymentId: string, secret = keySecret()): string {
  return hmacHex(secret, `${orderId}|${paymentId}`);
}

export function isValidPaymentSignature(orderId: string, paymentId: string, signature: string, secret = keySecret()): boolean {
  return sameHex(signPayment(orderId, paymentId, secret), signature);
}

export function signWebhook(rawBody: string, secret = webhookSecret()): string {
  return hmacHex(secret, rawBody);
}

/** X-Razorpay-Signature: HMAC-SHA256 of the raw request body with the webhook secret. */
export function isValidWebhookSignature(rawBody: string, signature: string, secret = webhookSecret()): boolean {
  return sameHex(signWebhook(rawBody, secret), signature);
}

/**
 * An id in Razorpay's style: a prefix and 14 characters from [A-Za-z0-9], the first of them
 * `marker` (the offline gateway's ids start "TEST", so staff can tell test payments apart).
 */
export function gatewayId(prefix: "order" | "pay" | "rfnd", marker = ""): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let out = marker;
  while (out.length < 14) out += alphabet[crypto.randomInt(alphabet.length)];
  return `${prefix}_${out}`;
}

export const TEST_MARKER = "TEST";

/** Was this payment made on the offline test gateway (no money moved)? */
export function isTestPaymentId(paymentId: string | null): boolean {
  return paymentId?.startsWith(`pay_${TEST_MARKER}`) ?? false;
}

/**
 * A Razorpay client with the shop's keys, and its axios instance (the SDK's, not in its types),
 * whose calls give up after 20 s: a hung gateway never holds a customer's request longer.
 */
async function razorpayClient() {
  const { default: Razorpay } = await import("razorpay");
  const client = new Razorpay({ key_id: env.RAZORPAY_KEY_ID!, key_secret: env.RAZORPAY_KEY_SECRET! });
  const http = (
    client.api as unknown as { rq?: { defaults: { headers: { common: Record<string, string> }; timeout?: number } } } | undefined
  )?.rq;
  if (http) http.defaults.timeout = 20_000;
  return { client, http };
}

/**
 * Create the gateway's order for an amount in paise. Razorpay mode calls Razorpay's Orders API
 * (network); offline mode makes a local id.
 */
export async function createGatewayOrder(amountPaise: number, receipt: string): Promise<string> {
  if (paymentMode() === "offline") return gatewayId("order", TEST_MARKER);
  const { client } = await razorpayClient();
  try {
    const order = await client.orders.create({ amount: amountPaise, currency: "INR", receipt });
    if (typeof order.id !== "string") throw new Error("no order id");
    return order.id;
  } catch (error) {
    // The SDK rejects with a plain object or a TypeError: said once here, never as a 500.
    log.warn(`Razorpay's Orders API failed: ${gatewayError(error, "refused").reason}`);
    throw new AppError(503, GATEWAY_UNAVAILABLE);
  }
}

export const GATEWAY_UNAVAILABLE = "The payment gateway could not be reached. Please try again in a minute, or choose Cash on Delivery.";

/**
 * The offline gateway's "payment": a new payment id and its signature. `failed` (to try the failure
 * path from outside) signs nothing: its signature is all zeros, which never verifies.
 */
export function offlinePayment(
  orderId: string,
  outcome: "paid" | "failed" = "paid",
  paymentId = gatewayId("pay", TEST_MARKER),
): { paymentId: string; signature: string } {
  if (paymentMode() !== "offline") throw new Error("The offline test gateway is off while Razorpay keys are set");
  return { paymentId, signature: outcome === "paid" ? signPayment(orderId, paymentId) : "0".repeat(64) };
}

/**
 * The one payment the offline test gateway's page and API make of a payment order: its id is
 * derived from the order's id with the key secret, so paying again (a reload, a second click)
 * hands over the same payment, never a second one that the shop would refund as paid twice (with a
 * fresh payment each time, every extra proof became a full refund on the order and a mail).
 */
export function offlineGatewayPayment(orderId: string, outcome: "paid" | "failed" = "paid"): { paymentId: string; signature: string } {
  const digest = crypto.createHmac("sha256", keySecret()).update(`test-gateway-payment|${orderId}`).digest();
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const tail = Array.from(digest.subarray(0, 14 - TEST_MARKER.length), (byte) => alphabet[byte % alphabet.length]).join("");
  return offlinePayment(orderId, outcome, `pay_${TEST_MARKER}${tail}`);
}

// ---- Capture (ADR 0012) ---------------------------------------------------------------------

/** The payment a proof names, as the shop checks it before anything is ordered for it. */
export interface CaptureRequest {
  paymentId: string;
  /** the payment order (Razorpay's order) it must belong to */
  orderId: string;
  amountPaise: number;
}

/**
 * The gateway's word on a payment: captured (the money is the shop's), refused (it is not and will
 * not be: failed, only authorised and not capturable, or not this order's amount, currency or
 * order), or unavailable (no answer worth acting on: ask again later).
 */
export type CaptureAnswer = { outcome: "captured" } | { outcome: "refused"; reason: string } | { outcome: "unavailable"; reason: string };

interface GatewayPayment {
  id?: unknown;
  order_id?: unknown;
  amount?: unknown;
  currency?: unknown;
  status?: unknown;
}

/** Is this Razorpay payment the one the shop asked for: its order, its amount in paise, rupees? */
function mismatch(payment: GatewayPayment, request: CaptureRequest): string | null {
  if (payment.order_id !== request.orderId) return "The payment belongs to another order";
  if (payment.currency !== "INR") return `The payment is in ${String(payment.currency)}, not INR`;
  if (payment.amount !== request.amountPaise) return `The payment is of ${String(payment.amount)} paise, not ${request.amountPaise}`;
  return null;
}

/**
 * A checkout signature proves that a payment was authorised, not that the money was taken. Before an
 * order is paid by it, the payment is read from the gateway's Payments API: captured, it is the
 * shop's; only authorised, the shop captures it (the order's amount, INR) and reads the answer; any
 * other state, amount, currency or order refuses it. The offline test gateway moves no money: its
 * payments (`pay_TEST…`, made by the shop's own page and signed with its key) are captured as made.
 */
export async function capturePayment(request: CaptureRequest): Promise<CaptureAnswer> {
  if (isTestPaymentId(request.paymentId)) {
    return paymentMode() === "offline"
      ? { outcome: "captured" }
      : { outcome: "refused", reason: "A test payment while Razorpay keys are set" };
  }
  if (paymentMode() === "offline") return { outcome: "refused", reason: "Razorpay keys are not set: a Razorpay payment cannot be checked" };
  const { client } = await razorpayClient();
  const read = async (): Promise<CaptureAnswer | GatewayPayment> => {
    try {
      const payment = (await client.payments.fetch(request.paymentId)) as GatewayPayment;
      const wrong = mismatch(payment, request);
      return wrong ? { outcome: "refused", reason: wrong } : payment;
    } catch (error) {
      return gatewayError(error, "The payment gateway did not find the payment");
    }
  };
  const verdict = (payment: GatewayPayment): CaptureAnswer =>
    payment.status === "captured"
      ? { outcome: "captured" }
      : { outcome: "refused", reason: `The payment is ${String(payment.status)}, not captured` };
  const first = await read();
  if ("outcome" in first) return first;
  if (first.status !== "authorized") return verdict(first);
  try {
    await client.payments.capture(request.paymentId, request.amountPaise, "INR");
  } catch (error) {
    // Captured meanwhile by another request for the same payment (Razorpay refuses a second capture)?
    const again = await read();
    if (!("outcome" in again) && again.status === "captured") return { outcome: "captured" };
    return gatewayError(error, "The payment gateway refused to capture the payment");
  }
  // What counts is the payment as the gateway now holds it, not the capture call's echo.
  const captured = await read();
  return "outcome" in captured ? captured : verdict(captured);
}

// ---- Refunds (ADR 0024) ---------------------------------------------------------------------

/** What the shop sends to refund (part of) a payment. */
export interface GatewayRefundRequest {
  paymentId: string;
  amountPaise: number;
  /** Razorpay's X-Refund-Idempotency: 10 to 64 of [A-Za-z0-9_-], the same on every resend of this refund */
  idempotencyKey: string;
  receipt: string;
  notes: Record<string, string>;
}

/**
 * The gateway's answer: the refund it made (or had made already under this key) and its state; a
 * refusal that sending again will not change (a 4xx other than 409/429: more than was paid, a
 * payment refunded already); or no answer worth keeping (no network, a timeout, a 5xx, Razorpay's
 * 409 for a request with this key still in progress), after which the same request is sent again.
 */
export type GatewayRefundAnswer =
  | { outcome: "answered"; id: string; status: "pending" | "processed" | "failed" }
  | { outcome: "refused"; reason: string }
  | { outcome: "unavailable"; reason: string };

const REFUND_STATES = new Set(["pending", "processed", "failed"]);

/** The SDK rejects an API error as `{ statusCode, error: { description } }`, and a network failure as a TypeError. */
function gatewayError(error: unknown, refusal: string): { outcome: "refused" | "unavailable"; reason: string } {
  const answer = typeof error === "object" && error !== null ? (error as { statusCode?: unknown; error?: { description?: unknown } }) : {};
  const status = typeof answer.statusCode === "number" ? answer.statusCode : null;
  const description = typeof answer.error?.description === "string" ? answer.error.description.slice(0, 300) : null;
  if (status === null) return { outcome: "unavailable", reason: "The payment gateway could not be reached" };
  if (status === 409 || status === 429 || status >= 500) {
    return { outcome: "unavailable", reason: `The payment gateway answered ${status}${description ? `: ${description}` : ""}` };
  }
  return { outcome: "refused", reason: description ?? `${refusal} (${status})` };
}

/**
 * Refund (part of) a payment. A payment of the offline test gateway (`pay_TEST…`, in either mode)
 * is refunded by the test gateway, which moved no money and records the refund as processed at
 * once (`rfnd_TEST…`). Any other payment goes to Razorpay's Refunds API, `payments.refund` with
 * the amount in paise and the idempotency key in the X-Refund-Idempotency header (the SDK's call
 * takes no headers: each refund uses its own client with the header among its defaults), so a
 * resend after a lost answer returns the refund made the first time instead of refunding again.
 */
export async function createGatewayRefund(request: GatewayRefundRequest): Promise<GatewayRefundAnswer> {
  if (isTestPaymentId(request.paymentId)) return { outcome: "answered", id: gatewayId("rfnd", TEST_MARKER), status: "processed" };
  if (paymentMode() === "offline") {
    return { outcome: "refused", reason: "Razorpay keys are not set: a Razorpay payment cannot be refunded from here" };
  }
  const { client, http } = await razorpayClient();
  // This client's requests carry the key (the SDK's refund call takes no headers).
  if (http) http.defaults.headers.common["X-Refund-Idempotency"] = request.idempotencyKey;
  try {
    const refund = (await client.payments.refund(request.paymentId, {
      amount: request.amountPaise,
      speed: "normal",
      notes: request.notes,
      receipt: request.receipt,
    })) as { id?: unknown; status?: unknown };
    if (typeof refund.id !== "string" || typeof refund.status !== "string" || !REFUND_STATES.has(refund.status)) {
      return { outcome: "unavailable", reason: "The payment gateway's answer named no refund" };
    }
    return { outcome: "answered", id: refund.id, status: refund.status as "pending" | "processed" | "failed" };
  } catch (error) {
    return gatewayError(error, "The payment gateway refused the refund");
  }
}
