// With Razorpay keys set: the real SDK creates the orders, the key secret signs, the test
// gateway is off, and the CSP lets Razorpay Checkout in (and only then).
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as PaymentsModule from "./payments.server";
import type * as HeadersModule from "./security-headers.server";

const create = vi.fn(async (params: { amount: number; currency: string; receipt: string }) => ({ id: "order_RzpLive1234567", ...params }));
const constructed: unknown[] = [];

vi.mock("razorpay", () => ({
  default: class FakeRazorpay {
    orders = { create };
    constructor(options: unknown) {
      constructed.push(options);
    }
  },
}));

let payments: typeof PaymentsModule;
let headers: typeof HeadersModule;

beforeAll(async () => {
  vi.stubEnv("RAZORPAY_KEY_ID", "rzp_test_key123");
  vi.stubEnv("RAZORPAY_KEY_SECRET", "live-secret-for-tests");
  vi.resetModules();
  payments = await import("./payments.server");
  headers = await import("./security-headers.server");
});

afterAll(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("Razorpay mode", () => {
  it("is on with both keys, and the browser gets the key id", () => {
    expect(payments.paymentMode()).toBe("razorpay");
    expect(payments.publicKeyId()).toBe("rzp_test_key123");
  });

  it("creates the order through Razorpay's Orders API, in paise and INR", async () => {
    const id = await payments.createGatewayOrder(1_234_500, "u7-1");
    expect(id).toBe("order_RzpLive1234567");
    expect(create).toHaveBeenCalledWith({ amount: 1_234_500, currency: "INR", receipt: "u7-1" });
    expect(constructed).toContainEqual({ key_id: "rzp_test_key123", key_secret: "live-secret-for-tests" });
  });

  it("checks signatures with the key secret (what Razorpay Checkout hands the browser)", () => {
    const signature = crypto.createHmac("sha256", "live-secret-for-tests").update("order_RzpLive1234567|pay_Abc123").digest("hex");
    expect(payments.isValidPaymentSignature("order_RzpLive1234567", "pay_Abc123", signature)).toBe(true);
    const offlineStyle = crypto.createHmac("sha256", "some-other-secret").update("order_RzpLive1234567|pay_Abc123").digest("hex");
    expect(payments.isValidPaymentSignature("order_RzpLive1234567", "pay_Abc123", offlineStyle)).toBe(false);
  });

  it("turns the offline test gateway off", () => {
    expect(() => payments.offlinePayment("order_RzpLive1234567")).toThrow(/offline test gateway is off/);
  });

  it("lets Razorpay Checkout's script and frames through the CSP", () => {
    const csp = headers.contentSecurityPolicy("n0nce");
    expect(csp).toMatch(/script-src [^;]*https:\/\/checkout\.razorpay\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/api\.razorpay\.com/);
  });
});
