import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { validatePaymentVerification, validateWebhookSignature } from "razorpay/dist/utils/razorpay-utils.js";
import { describe, expect, it } from "vitest";
import {
  createGatewayOrder,
  gatewayId,
  isValidPaymentSignature,
  isValidWebhookSignature,
  offlineGatewayPayment,
  offlinePayment,
  paymentMode,
  publicKeyId,
  signPayment,
  signWebhook,
  TEST_MARKER,
} from "./payments.server";

const SECRET = "rzp_test_secret_0123456789abcdef";
const ORDER = "order_Abc123Def456Gh";
const PAYMENT = "pay_Zyx987Wvu654Ts";

const hmac = (secret: string, payload: string) => crypto.createHmac("sha256", secret).update(payload).digest("hex");

/** The same hex string with the character at `i` changed to another hex digit. */
const flip = (hex: string, i: number) => hex.slice(0, i) + (hex[i] === "0" ? "1" : "0") + hex.slice(i + 1);

/** Calls `check` and fails the test if it throws; returns its answer. */
function noThrow(check: () => boolean): boolean {
  let answer: boolean | undefined;
  expect(() => {
    answer = check();
  }).not.toThrow();
  return answer!;
}

describe("payment signatures", () => {
  const signature = signPayment(ORDER, PAYMENT, SECRET);

  it("is Razorpay's: HMAC-SHA256 hex of 'order_id|payment_id'", () => {
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(signature).toBe(hmac(SECRET, `${ORDER}|${PAYMENT}`));
  });

  it("round trip: a signature made with a secret is valid with that secret", () => {
    expect(isValidPaymentSignature(ORDER, PAYMENT, signature, SECRET)).toBe(true);
  });

  it("depends on the secret, the order id and the payment id", () => {
    expect(signPayment(ORDER, PAYMENT, `${SECRET}x`)).not.toBe(signature);
    expect(isValidPaymentSignature(ORDER, PAYMENT, signature, `${SECRET}x`)).toBe(false);
    expect(isValidPaymentSignature("order_Abc123Def456Gi", PAYMENT, signature, SECRET)).toBe(false);
    expect(isValidPaymentSignature(ORDER, "pay_Zyx987Wvu654Tt", signature, SECRET)).toBe(false);
    // The ids swapped, or the separator moved, are different payloads.
    expect(isValidPaymentSignature(PAYMENT, ORDER, signature, SECRET)).toBe(false);
    expect(isValidPaymentSignature(`${ORDER}|`, PAYMENT, signature, SECRET)).toBe(false);
  });

  it("any one flipped hex character is refused", () => {
    for (let i = 0; i < signature.length; i++) {
      expect(isValidPaymentSignature(ORDER, PAYMENT, flip(signature, i), SECRET)).toBe(false);
    }
  });

  it("upper-case hex is the same signature and is accepted", () => {
    expect(isValidPaymentSignature(ORDER, PAYMENT, signature.toUpperCase(), SECRET)).toBe(true);
    const mixed = [...signature].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join("");
    expect(isValidPaymentSignature(ORDER, PAYMENT, mixed, SECRET)).toBe(true);
  });

  it("a wrong length, non-hex text or nothing is false, never an exception", () => {
    const wrong = [
      "",
      signature.slice(0, -1),
      signature.slice(0, -2),
      `${signature}0`,
      `${signature}00`,
      signature + signature,
      `${signature.slice(0, -1)}g`,
      `${signature.slice(0, -1)} `,
      ` ${signature.slice(1)}`,
      "z".repeat(64),
      Buffer.from(signature, "hex").toString("base64"),
      "not a signature",
      "0x" + signature.slice(2),
    ];
    for (const given of wrong) expect(noThrow(() => isValidPaymentSignature(ORDER, PAYMENT, given, SECRET))).toBe(false);
    // What a careless caller might hand over from an untyped request body.
    for (const given of [undefined, null, 42, {}, []]) {
      expect(noThrow(() => isValidPaymentSignature(ORDER, PAYMENT, given as unknown as string, SECRET))).toBe(false);
    }
  });

  it("Razorpay's SDK accepts our signatures", () => {
    expect(validatePaymentVerification({ order_id: ORDER, payment_id: PAYMENT }, signature, SECRET)).toBe(true);
    expect(validatePaymentVerification({ order_id: ORDER, payment_id: PAYMENT }, signature, `${SECRET}x`)).toBe(false);
    for (let n = 0; n < 20; n++) {
      const order = gatewayId("order");
      const payment = gatewayId("pay");
      const secret = crypto.randomBytes(16).toString("hex");
      expect(validatePaymentVerification({ order_id: order, payment_id: payment }, signPayment(order, payment, secret), secret)).toBe(true);
    }
  });

  it("we accept a signature made the way Razorpay makes it (node:crypto HMAC-SHA256 hex)", () => {
    for (let n = 0; n < 20; n++) {
      const order = gatewayId("order");
      const payment = gatewayId("pay");
      const secret = crypto.randomBytes(16).toString("base64");
      expect(isValidPaymentSignature(order, payment, hmac(secret, `${order}|${payment}`), secret)).toBe(true);
    }
  });
});

describe("webhook signatures", () => {
  const body = JSON.stringify({
    event: "payment.captured",
    payload: { payment: { entity: { id: PAYMENT, order_id: ORDER, amount: 1_180_000 } } },
  });
  const signature = signWebhook(body, SECRET);

  it("is HMAC-SHA256 hex of the raw body", () => {
    expect(signature).toBe(hmac(SECRET, body));
  });

  it("round trip, and any change to the body, the secret or the signature is refused", () => {
    expect(isValidWebhookSignature(body, signature, SECRET)).toBe(true);
    expect(isValidWebhookSignature(body, signature.toUpperCase(), SECRET)).toBe(true);
    expect(isValidWebhookSignature(`${body} `, signature, SECRET)).toBe(false);
    expect(isValidWebhookSignature(body.replace("1180000", "1180001"), signature, SECRET)).toBe(false);
    expect(isValidWebhookSignature(body, signature, `${SECRET}x`)).toBe(false);
    expect(isValidWebhookSignature(body, flip(signature, 10), SECRET)).toBe(false);
    // The body is the raw text: re-serialised JSON with other spacing is another body.
    expect(isValidWebhookSignature(JSON.stringify(JSON.parse(body), null, 2), signature, SECRET)).toBe(false);
  });

  it("a wrong length or non-hex signature is false, never an exception", () => {
    for (const given of ["", signature.slice(0, 63), `${signature}a`, "g".repeat(64), "sha256=" + signature]) {
      expect(noThrow(() => isValidWebhookSignature(body, given, SECRET))).toBe(false);
    }
  });

  it("compatible with Razorpay's SDK both ways", () => {
    expect(validateWebhookSignature(body, signature, SECRET)).toBe(true);
    expect(validateWebhookSignature(body, signature, `${SECRET}x`)).toBe(false);
    const theirs = crypto.createHmac("sha256", SECRET).update(body).digest("hex");
    expect(validateWebhookSignature(body, theirs, SECRET)).toBe(true);
    expect(isValidWebhookSignature(body, theirs, SECRET)).toBe(true);
  });

  it("the default webhook secret is stable between calls", () => {
    expect(isValidWebhookSignature(body, signWebhook(body))).toBe(true);
    expect(signWebhook(body)).toBe(signWebhook(body));
    expect(signWebhook(body)).not.toBe(signature);
  });
});

describe("gatewayId", () => {
  it("looks like Razorpay's ids", () => {
    for (let n = 0; n < 200; n++) {
      expect(gatewayId("order")).toMatch(/^order_[A-Za-z0-9]{14}$/);
      expect(gatewayId("pay")).toMatch(/^pay_[A-Za-z0-9]{14}$/);
    }
  });

  it("1,000 ids are all different and use the whole alphabet", () => {
    const ids = Array.from({ length: 1000 }, () => gatewayId("pay"));
    expect(new Set(ids).size).toBe(1000);
    const chars = new Set(ids.flatMap((id) => [...id.slice(4)]));
    expect(chars.size).toBe(62);
  });
});

describe("offline mode (no RAZORPAY_* keys in tests)", () => {
  it("is offline, with no public key id", () => {
    expect(paymentMode()).toBe("offline");
    expect(publicKeyId()).toBeNull();
  });

  it("creates local gateway orders", async () => {
    const [a, b] = await Promise.all([createGatewayOrder(1_180_000, "receipt-1"), createGatewayOrder(1_180_000, "receipt-2")]);
    expect(a).toMatch(/^order_[A-Za-z0-9]{14}$/);
    expect(b).not.toBe(a);
  });

  it("offlineGatewayPayment: one payment per payment order, signed, and another order's is another", () => {
    const order = gatewayId("order", TEST_MARKER);
    const first = offlineGatewayPayment(order);
    expect(first.paymentId).toMatch(/^pay_TEST[A-Za-z0-9]{10}$/);
    expect(offlineGatewayPayment(order)).toEqual(first);
    expect(isValidPaymentSignature(order, first.paymentId, first.signature)).toBe(true);
    expect(offlineGatewayPayment(gatewayId("order", TEST_MARKER)).paymentId).not.toBe(first.paymentId);
    expect(offlineGatewayPayment(order, "failed")).toEqual({ paymentId: first.paymentId, signature: "0".repeat(64) });
  });

  it("offlinePayment gives a new payment id and a signature valid with the default secret", () => {
    const order = gatewayId("order");
    const first = offlinePayment(order);
    const second = offlinePayment(order);
    expect(first.paymentId).toMatch(/^pay_[A-Za-z0-9]{14}$/);
    expect(second.paymentId).not.toBe(first.paymentId);
    expect(isValidPaymentSignature(order, first.paymentId, first.signature)).toBe(true);
    expect(isValidPaymentSignature(order, second.paymentId, second.signature)).toBe(true);
    // Each signature is bound to its own order and payment.
    expect(isValidPaymentSignature(order, second.paymentId, first.signature)).toBe(false);
    expect(isValidPaymentSignature(gatewayId("order"), first.paymentId, first.signature)).toBe(false);
    // The default secret is a real one, not an empty key.
    expect(isValidPaymentSignature(order, first.paymentId, first.signature, "")).toBe(false);
    expect(signPayment(order, first.paymentId)).toBe(first.signature);
  });

  it("the default key secret is generated once and kept in the data folder (mode 0600)", () => {
    const file = path.join(process.env.DATA_DIR!, "offline-gateway.secret");
    const { paymentId, signature } = offlinePayment(ORDER);
    const kept = fs.readFileSync(file, "utf8").trim();
    expect(kept.length).toBeGreaterThanOrEqual(32);
    expect(signature).toBe(hmac(kept, `${ORDER}|${paymentId}`));
    if (process.platform !== "win32") expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe("the CSP without Razorpay keys", () => {
  it("lets no Razorpay script or frame in", async () => {
    const { contentSecurityPolicy } = await import("./security-headers.server");
    expect(contentSecurityPolicy("n0nce")).not.toMatch(/razorpay/);
  });
});
