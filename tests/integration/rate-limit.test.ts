import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { LIMITS, rateLimitRequest, SHOP_WIDE } from "~/lib/rate-limit.server";
import { getRequest } from "../support/requests";

beforeAll(async () => {
  await ready;
});

describe("rate limits", () => {
  it("hold one email to its limit, and the shop-wide ceiling holds a client that changes the email every time", async () => {
    const request = getRequest("/contact");
    for (let i = 0; i < LIMITS.contact.max; i++) await rateLimitRequest(LIMITS.contact, request, "same@example.com");
    await expect(rateLimitRequest(LIMITS.contact, request, "same@example.com")).rejects.toMatchObject({ status: 429 });

    const ceiling = SHOP_WIDE.contact.max;
    let refused = 0;
    for (let i = 0; i < ceiling + 5; i++) {
      try {
        await rateLimitRequest(LIMITS.contact, request, `visitor-${i}@example.com`);
      } catch (error) {
        expect(error).toMatchObject({ status: 429, message: "Too many attempts. Please wait a while and try again." });
        refused++;
      }
    }
    // The five accepted calls above already counted against the ceiling (the refused sixth did
    // not reach it), so the last max + 5 of these are refused.
    expect(refused).toBe(LIMITS.contact.max + 5);
  });
});
