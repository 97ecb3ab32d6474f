// The production server's door (server/request-gate.ts), in front of a stand-in for Remix that
// answers 200: what it refuses before the app runs, and what it lets through untouched.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestGate } from "../../server/request-gate";

function serve(
  trustProxy: boolean | ((req: express.Request) => boolean),
): Promise<{ server: Server; base: string; seen: Record<string, unknown>[] }> {
  const seen: Record<string, unknown>[] = [];
  const app = express();
  app.use(requestGate({ trustProxy }));
  app.all("*", (req, res) => {
    seen.push({
      path: req.path,
      forwardedHost: req.headers["x-forwarded-host"] ?? null,
      forwardedProto: req.headers["x-forwarded-proto"] ?? null,
    });
    res.send("reached the app");
  });
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => {
      resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen });
    });
  });
}

let direct: Awaited<ReturnType<typeof serve>>;
let proxied: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  [direct, proxied] = await Promise.all([serve(false), serve(true)]);
});

afterAll(() => {
  direct.server.close();
  proxied.server.close();
});

function post(path: string, headers: Record<string, string>, body = "a=1", base = direct.base) {
  return fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers }, body });
}

const host = () => new URL(direct.base).host;

describe("cross-site state changes are refused before Remix", () => {
  it("a page post from another site: 403 in plain text, the app never runs", async () => {
    const before = direct.seen.length;
    for (const path of ["/cart", "/login", "/signup", "/checkout", "/admin/login"]) {
      const answer = await post(path, { Origin: "https://evil.example" });
      expect(answer.status).toBe(403);
      expect(answer.headers.get("Content-Type")).toContain("text/plain");
      expect(await answer.text()).toBe("Cross-site request refused");
    }
    expect(direct.seen.length).toBe(before);
  });

  it("an API post from another site: 403 with the API's JSON error", async () => {
    for (const path of ["/api/cart/add", "/api/user/auth/login", "/rzp/verify-payment"]) {
      const answer = await post(path, { Origin: "https://evil.example", Cookie: "__session=x" });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toEqual({ message: "Cross-site request refused" });
    }
  });

  it("an Origin of 'null', one that is not a URL, and a foreign Referer without Origin are refused", async () => {
    expect((await post("/cart", { Origin: "null" })).status).toBe(403);
    expect((await post("/cart", { Origin: "not a url" })).status).toBe(403);
    expect((await post("/cart", { Referer: "https://evil.example/page" })).status).toBe(403);
  });

  it("this site's own posts, and a client that names no origin, reach the app", async () => {
    expect((await post("/cart", { Origin: `http://${host()}` })).status).toBe(200);
    expect((await post("/cart", { Referer: `http://${host()}/product/x` })).status).toBe(200);
    expect((await post("/api/cart/add", {})).status).toBe(200);
    expect((await fetch(`${direct.base}/cart`, { headers: { Origin: "https://evil.example" } })).status).toBe(200);
  });

  it("a bearer token without cookies is an API client: exempt on the API, never on a page", async () => {
    const bearer = { Origin: "https://evil.example", Authorization: "Bearer abc" };
    expect((await post("/api/orders/add", bearer)).status).toBe(200);
    expect((await post("/cart", bearer)).status).toBe(403);
    expect((await post("/api/orders/add", { ...bearer, Cookie: "__session=x" })).status).toBe(403);
  });

  it("X-Forwarded-Host counts only behind a trusted proxy, and is removed otherwise", async () => {
    const spoofed = await post("/cart", { Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" });
    expect(spoofed.status).toBe(403);
    const before = direct.seen.length;
    expect((await post("/cart", { Origin: `http://${host()}`, "X-Forwarded-Host": "evil.example" })).status).toBe(200);
    expect(direct.seen[before]).toMatchObject({ forwardedHost: null });

    const viaProxy = { Origin: "https://shop.example", "X-Forwarded-Host": "shop.example" };
    expect((await post("/cart", viaProxy, "a=1", proxied.base)).status).toBe(200);
    expect(
      (await post("/cart", { Origin: `http://${new URL(proxied.base).host}`, "X-Forwarded-Host": "shop.example" }, "a=1", proxied.base))
        .status,
    ).toBe(403);
  });
});

describe("bodies and URLs", () => {
  it("a body over 64 KB is refused (413) on the shop's forms and the API", async () => {
    const big = "a=" + "x".repeat(70 * 1024);
    expect((await post("/cart", { Origin: `http://${host()}` }, big)).status).toBe(413);
    const api = await post("/api/cart/add", {}, big);
    expect(api.status).toBe(413);
    expect(await api.json()).toEqual({ message: "The request is too large" });
  });

  it("a staff form may carry an image of up to 2 MB, not more", async () => {
    const origin = { Origin: `http://${host()}` };
    expect((await post("/admin/products", origin, "a=" + "x".repeat(1024 * 1024))).status).toBe(200);
    expect((await post("/admin/products", origin, "a=" + "x".repeat(3 * 1024 * 1024))).status).toBe(413);
  });

  it("a URL with a NUL character is refused (400)", async () => {
    const answer = await fetch(`${direct.base}/search?q=a%00b`);
    expect(answer.status).toBe(400);
    expect((await fetch(`${direct.base}/api/category/items?slug=a%00`)).status).toBe(400);
  });
});

describe("a proxy the server does not trust", () => {
  it("a peer that is not a listed proxy: X-Forwarded-Host and -Proto are removed and cannot vouch for an origin", async () => {
    const listed = await serve((req) => req.socket.remoteAddress === "10.0.0.5");
    try {
      const headers = { Origin: "https://evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" };
      expect((await post("/cart", headers, "a=1", listed.base)).status).toBe(403);
      const own = { Origin: `http://${new URL(listed.base).host}`, "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" };
      expect((await post("/cart", own, "a=1", listed.base)).status).toBe(200);
      expect(listed.seen.at(-1)).toMatchObject({ forwardedHost: null, forwardedProto: null });
    } finally {
      listed.server.close();
    }
  });

  it("is named once in the log: every visitor would share its address", async () => {
    const warnings: string[] = [];
    const app = express();
    app.use(requestGate({ trustProxy: false, warn: (message: string) => warnings.push(message) }));
    app.all("*", (_req, res) => res.send("ok"));
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await fetch(`${base}/`);
      expect(warnings).toEqual([]);
      await fetch(`${base}/`, { headers: { "X-Forwarded-For": "198.51.100.9" } });
      await fetch(`${base}/`, { headers: { "X-Forwarded-For": "198.51.100.10" } });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("TRUST_PROXY");
    } finally {
      server.close();
    }
  });
});
