import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { clientOf, LIMITS, rateLimitClient, SHOP_WIDE } from "~/lib/rate-limit.server";
import { getRequest } from "../support/requests";

beforeAll(async () => {
  await ready;
});

describe("rate limits", () => {
  it("hold one email to its limit, and the shop-wide ceiling holds a client that changes the email every time", async () => {
    const client = clientOf(getRequest("/contact"));
    for (let i = 0; i < LIMITS.contact.max; i++) await rateLimitClient(LIMITS.contact, client, "same@example.com");
    await expect(rateLimitClient(LIMITS.contact, client, "same@example.com")).rejects.toMatchObject({ status: 429 });

    const ceiling = SHOP_WIDE.contact.max;
    let refused = 0;
    for (let i = 0; i < ceiling + 5; i++) {
      try {
        await rateLimitClient(LIMITS.contact, client, `visitor-${i}@example.com`);
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

describe("login attempts behind a trusted proxy", () => {
  it("are limited per client address too, whatever email each try names", async () => {
    const { env } = await import("~/lib/env.server");
    const trusted = env.TRUST_PROXY;
    env.TRUST_PROXY = true;
    try {
      const from = (ip: string) => clientOf(getRequest("/login", { "X-Forwarded-For": `10.9.9.9, ${ip}` }));
      for (let i = 0; i < LIMITS.login.perAddress; i++) await rateLimitClient(LIMITS.login, from("203.0.113.9"), `try-${i}@example.com`);
      await expect(rateLimitClient(LIMITS.login, from("203.0.113.9"), "fresh@example.com")).rejects.toMatchObject({ status: 429 });
      // Another address is not held by the first one's tries (no shop-wide lockout once addresses are known),
      // and the address is the right-most X-Forwarded-For entry: the one the proxy added.
      await expect(rateLimitClient(LIMITS.login, from("198.51.100.7"), "other@example.com")).resolves.toBeUndefined();
    } finally {
      env.TRUST_PROXY = trusted;
    }
  });
});

describe("addressKey", () => {
  it("keeps IPv4, unwraps IPv4-mapped IPv6, and limits IPv6 by its /64", async () => {
    const { addressKey } = await import("~/lib/rate-limit.server");
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2::1")).toBe(addressKey("2001:0db8:0001:0002:ffff::9"));
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("")).toBeNull();
    expect(addressKey(null)).toBeNull();
  });
});
