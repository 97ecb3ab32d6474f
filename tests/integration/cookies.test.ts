// Session and toast cookies are Secure exactly when the visitor came over HTTPS.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { action as cartAction } from "~/routes/cart";
import { call } from "../support/route-calls";

beforeAll(async () => {
  await ready;
});

function addRequest(origin: string, headers: Record<string, string> = {}) {
  return new Request(`${origin}/cart`, {
    method: "POST",
    headers: { Host: new URL(origin).host, Origin: origin, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ intent: "add", itemId: "1", quantity: "1", redirectTo: "/cart" }).toString(),
  });
}

function cookieFlags(response: Response) {
  return response.headers
    .getSetCookie()
    .map((c) => ({ name: c.split("=")[0], secure: /;\s*Secure/i.test(c), httpOnly: /;\s*HttpOnly/i.test(c) }));
}

describe("cookie security", () => {
  it("over HTTPS both cookies are Secure and HttpOnly", async () => {
    const answer = await call(cartAction, addRequest("https://shop.example"));
    const flags = cookieFlags(answer.raw as Response);
    expect(flags.map((f) => f.name).sort()).toEqual(["__session", "__toast"]);
    expect(flags.every((f) => f.secure && f.httpOnly)).toBe(true);
  });

  it("over plain HTTP they are HttpOnly but not Secure, so the session still works", async () => {
    const answer = await call(cartAction, addRequest("http://192.168.1.20:3000"));
    const flags = cookieFlags(answer.raw as Response);
    expect(flags.length).toBe(2);
    expect(flags.every((f) => !f.secure && f.httpOnly)).toBe(true);
  });

  it("X-Forwarded-Proto is ignored unless TRUST_PROXY is set", async () => {
    const answer = await call(cartAction, addRequest("http://shop.example", { "X-Forwarded-Proto": "https" }));
    expect(cookieFlags(answer.raw as Response).every((f) => !f.secure)).toBe(true);
  });
});

describe("a shop whose public address is https", () => {
  it("marks cookies Secure even when the request reached it over plain HTTP (a proxy it does not trust)", async () => {
    const { env } = await import("~/lib/env.server");
    const { isSecureRequest } = await import("~/lib/http.server");
    const saved = env.PUBLIC_URL;
    try {
      env.PUBLIC_URL = "https://shop.example.in";
      expect(isSecureRequest(new Request("http://localhost:3000/"))).toBe(true);
      env.PUBLIC_URL = "http://localhost:3000";
      expect(isSecureRequest(new Request("http://localhost:3000/"))).toBe(false);
    } finally {
      env.PUBLIC_URL = saved;
    }
  });
});
