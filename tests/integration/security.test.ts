import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { seedProducts } from "../../db/seed-data";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import { getCart } from "~/models/cart.server";
import { currentCartId } from "~/web/visitor.server";
import { action as cartAdd } from "~/routes/api.cart.add";
import { action as subscribe } from "~/routes/api.stuff.addSubsEmail";
import { MAX_FIELD_CHARS } from "~/lib/http.server";
import { loader as images } from "~/routes/images.$";
import { ORIGIN, getRequest, jsonRequest } from "../support/requests";
import type { Answer, RouteFn } from "../support/route-calls";
import { asRecord, call, cookieJar, setCookies } from "../support/route-calls";

const ROUTES_DIR = path.resolve(__dirname, "../../app/routes");
const EVIL = "https://evil.example";
const METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;

interface ActionModule {
  file: string;
  action: RouteFn;
  /** the method the route is meant for (from its 405 Allow header), POST otherwise */
  method: string;
}

const inStock = seedProducts.find((p) => p.stock >= 5)!;
let itemId = 0;
let cookie = "";
let lineId = 0;
const actionModules: ActionModule[] = [];

/** Every route file that exports an action (found on disk, so a new route cannot be forgotten). */
async function loadActionModules(): Promise<ActionModule[]> {
  const files = fs
    .readdirSync(ROUTES_DIR)
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.(test|server)\./.test(f))
    .sort();
  const found: ActionModule[] = [];
  for (const file of files) {
    const mod = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, file))) as Record<string, unknown>;
    if (typeof mod.action !== "function") continue;
    const action = mod.action as RouteFn;
    // Probe (cross-site, so nothing can change): a route for another method says so in Allow.
    const probe = await call(action, hostileRequest("POST", { Origin: EVIL }), { id: String(lineId) });
    const allow = probe.status === 405 ? probe.headers.get("Allow")?.split(",")[0]?.trim() : undefined;
    found.push({ file, action, method: allow || "POST" });
  }
  return found;
}

/** A body that every action would accept if the origin check were missing. */
function hostileFields(): Record<string, string> {
  return {
    intent: "add",
    itemId: String(itemId),
    quantity: "1",
    id: String(lineId),
    email: "victim@example.com",
    name: "Victim",
    subject: "Other",
    message: "hello",
    password: "admin12345",
  };
}

function hostileRequest(method: string, headers: Record<string, string>): Request {
  return new Request(`${ORIGIN}/somewhere`, {
    method,
    headers: { Host: "localhost:3000", "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, ...headers },
    body: new URLSearchParams(hostileFields()).toString(),
  });
}

async function snapshot() {
  const count = async (table: "cartLines" | "carts" | "sessions" | "newsletterSubscribers" | "contactMessages" | "rateLimits") =>
    toCount(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const quantities = await db.selectFrom("cartLines").select(["id", "quantity"]).orderBy("id").execute();
  return {
    cartLines: await count("cartLines"),
    carts: await count("carts"),
    sessions: await count("sessions"),
    newsletter: await count("newsletterSubscribers"),
    contact: await count("contactMessages"),
    rateLimits: await count("rateLimits"),
    quantities,
  };
}

function expectCrossSiteRefusal(answer: Answer) {
  expect(answer.status).toBe(403);
  const body = answer.body;
  const message = typeof body === "string" ? body : String(asRecord(body).message ?? asRecord(body).formError ?? "");
  expect(message).toMatch(/cross-site/i);
  expect(setCookies(answer).filter((c) => c.startsWith("__session="))).toEqual([]);
}

beforeAll(async () => {
  await ready;
  itemId = (await db.selectFrom("items").select("id").where("slug", "=", inStock.slug).executeTakeFirstOrThrow()).id;
  // A visitor with a cart, so that clear/update/remove would have something to change.
  const added = await call(cartAdd, jsonRequest("POST", "/api/cart/add", { itemId, quantity: 2 }));
  expect(added.status).toBe(200);
  cookie = cookieJar(added);
  lineId = asRecord(added.body).id as number;
  actionModules.push(...(await loadActionModules()));
});

describe("cross-site requests are refused by every action", () => {
  it("finds the action modules on disk", () => {
    const names = actionModules.map((m) => m.file);
    for (const expected of [
      "api.cart.add.ts",
      "api.cart.update.ts",
      "api.cart.clear.ts",
      "api.cart.clear_.$id.ts",
      "api.stuff.addSubsEmail.ts",
      "api.stuff.sendMail.ts",
      "cart.tsx",
      "contact.tsx",
      "_index.tsx",
    ]) {
      expect(names).toContain(expected);
    }
  });

  it("a POST with a foreign Origin → 403 from every action, database unchanged", async () => {
    for (const { file, action } of actionModules) {
      const before = await snapshot();
      const answer = await call(action, hostileRequest("POST", { Origin: EVIL }), { id: String(lineId) });
      expect({ file, status: answer.status }).toEqual({ file, status: 403 });
      expectCrossSiteRefusal(answer);
      expect(await snapshot(), file).toEqual(before);
    }
  });

  it("a POST with only a foreign Referer → 403 from every action, database unchanged", async () => {
    for (const { file, action } of actionModules) {
      const before = await snapshot();
      const answer = await call(action, hostileRequest("POST", { Referer: `${EVIL}/page?x=1` }), { id: String(lineId) });
      expect({ file, status: answer.status }).toEqual({ file, status: 403 });
      expectCrossSiteRefusal(answer);
      expect(await snapshot(), file).toEqual(before);
    }
  });

  it("its own method with a foreign Origin, a foreign Referer or Origin: null → 403 from every action", async () => {
    for (const { file, action, method } of actionModules) {
      const variants: Record<string, string>[] = [
        { Origin: EVIL },
        { Referer: `${EVIL}/x` },
        { Origin: "null" },
        { Origin: "http://localhost:3000.evil.example" },
      ];
      for (const headers of variants) {
        const before = await snapshot();
        const answer = await call(action, hostileRequest(method, headers), { id: String(lineId) });
        expect({ file, method, headers, status: answer.status }).toEqual({ file, method, headers, status: 403 });
        expectCrossSiteRefusal(answer);
        expect(await snapshot(), file).toEqual(before);
      }
    }
  });

  it("a POST with Origin: null → 403 from every POST action", async () => {
    for (const { file, action } of actionModules.filter((m) => m.method === "POST")) {
      const answer = await call(action, hostileRequest("POST", { Origin: "null" }), { id: String(lineId) });
      expect({ file, status: answer.status }).toEqual({ file, status: 403 });
    }
  });

  // Every state-changing request (POST, PUT, PATCH, DELETE) from another origin is refused with 403
  // (docs/api.md, order of checks): the origin helper is the first thing every action calls.
  it("any state-changing method with a foreign Origin → 403 from every action (the origin check comes first)", async () => {
    const failures: string[] = [];
    for (const method of METHODS) {
      for (const { file, action } of actionModules) {
        const before = await snapshot();
        const answer = await call(action, hostileRequest(method, { Origin: EVIL }), { id: String(lineId) });
        if (answer.status !== 403) failures.push(`${method} ${file} → ${answer.status}`);
        expect(await snapshot(), file).toEqual(before);
      }
    }
    expect(failures).toEqual([]);
  });

  it("the visitor's cart survived all of it", async () => {
    const cart = await getCart(await currentCartId(new Request(`${ORIGIN}/cart`, { headers: { Cookie: cookie } })));
    expect(cart.items.map((l) => ({ id: l.id, quantity: l.quantity }))).toEqual([{ id: lineId, quantity: 2 }]);
  });

  it("a bearer-token call without cookies and without Origin/Referer is not refused by the origin check", async () => {
    const request = new Request(`${ORIGIN}/api/cart/add`, {
      method: "POST",
      headers: { Host: "localhost:3000", "Content-Type": "application/json", Authorization: "Bearer x" },
      body: JSON.stringify({ itemId, quantity: 1 }),
    });
    const answer = await call(cartAdd, request);
    expect(answer.status).not.toBe(403);
    expect(JSON.stringify(answer.body)).not.toMatch(/cross-site/i);
  });

  it("bearer calls without cookies are exempt for every action; with a cookie they are not", async () => {
    for (const { file, action, method } of actionModules) {
      const exempt = new Request(`${ORIGIN}/somewhere`, {
        method: "POST",
        headers: { Host: "localhost:3000", "Content-Type": "application/x-www-form-urlencoded", Authorization: "Bearer x" },
        body: new URLSearchParams({ intent: "explode" }).toString(),
      });
      const answer = await call(action, exempt, { id: "999999" });
      expect(JSON.stringify(answer.body), file).not.toMatch(/cross-site/i);
      const withCookie = await call(action, hostileRequest(method, { Origin: EVIL, Authorization: "Bearer x" }), { id: String(lineId) });
      expect({ file, status: withCookie.status }).toEqual({ file, status: 403 });
    }
  });

  it("same-origin requests pass (the check is not simply refusing everything)", async () => {
    const request = jsonRequest("POST", "/api/cart/add", { itemId, quantity: 1 }, { Referer: `${ORIGIN}/product/${inStock.slug}` });
    expect((await call(cartAdd, request)).status).toBe(200);
  });
});

describe("session cookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/, and carries a signed random id, not the id itself", async () => {
    const sessionsBefore = await db.selectFrom("sessions").select("id").execute();
    const answer = await call(cartAdd, jsonRequest("POST", "/api/cart/add", { itemId, quantity: 1 }));
    expect(answer.status).toBe(200);
    const header = setCookies(answer).find((c) => c.startsWith("__session="));
    expect(header).toBeDefined();
    expect(header).toMatch(/;\s*HttpOnly/i);
    expect(header).toMatch(/;\s*SameSite=Lax/i);
    expect(header).toMatch(/;\s*Path=\//i);

    const known = new Set(sessionsBefore.map((s) => s.id));
    const created = (await db.selectFrom("sessions").select(["id", "data"]).execute()).filter((s) => !known.has(s.id));
    expect(created).toHaveLength(1);
    const id = created[0].id;
    expect(id).toMatch(/^[A-Za-z0-9_-]{43,}$/); // ≥ 256 bits base64url
    const value = decodeURIComponent(header!.split(";")[0].slice("__session=".length));
    expect(value).not.toBe(id);
    expect(value).toMatch(/\.[^.]+$/); // value.signature

    // The raw id as a cookie, or a tampered signature, gives no session.
    const cartIdFromCookie = await currentCartId(new Request(`${ORIGIN}/`, { headers: { Cookie: cookieJar(answer) } }));
    expect(cartIdFromCookie).not.toBeNull();
    expect(await currentCartId(new Request(`${ORIGIN}/`, { headers: { Cookie: `__session=${id}` } }))).toBeNull();
    const tampered = `__session=${encodeURIComponent(`${value.slice(0, value.lastIndexOf(".") + 1)}AAAA`)}`;
    expect(await currentCartId(new Request(`${ORIGIN}/`, { headers: { Cookie: tampered } }))).toBeNull();
  });
});

describe("images", () => {
  const img = (splat: string, headers: Record<string, string> = {}) =>
    call(images, getRequest(`/images/${splat}`, headers), { "*": splat });

  it("GET /images/products/{slug}.svg answers image/svg+xml with nosniff", async () => {
    const answer = await img(`products/${inStock.slug}.svg`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    expect(answer.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(String(answer.body)).toMatch(/^<svg/);
    const etag = answer.headers.get("ETag");
    expect(etag).toBeTruthy();
    expect((await img(`products/${inStock.slug}.svg`, { "If-None-Match": etag! })).status).toBe(304);
  });

  it("serves categories and hero slides too", async () => {
    expect((await img("categories/bedroom.svg")).status).toBe(200);
    expect((await img("hero/1.svg")).status).toBe(200);
    expect((await img("hero/4.svg")).status).toBe(404);
  });

  it.each([
    "products/no-such-product.svg",
    "products/../categories/bedroom.svg",
    "products/..%2F..%2Fshop.db",
    "../shop.db",
    "products/../../../etc/passwd",
    "products/%2e%2e/secret.svg",
    "products/SHEESHAM.svg",
    "products/a.svg/../b.svg",
    "products/.svg",
    "products/a\u0000.svg",
    "session.secret",
    "",
  ])("answers 404 for %j", async (splat) => {
    const answer = await img(splat);
    expect(answer.status).toBe(404);
    expect(answer.headers.get("Content-Type") ?? "").not.toMatch(/svg/);
  });
});

describe("a stranger's long text is refused before any rule reads it (the 2026-11-23 review)", () => {
  it("a 64 KB email: 400 at once, the newsletter untouched", async () => {
    const before = await db
      .selectFrom("newsletterSubscribers")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const started = performance.now();
    const answer = await call(subscribe, jsonRequest("POST", "/api/stuff/addSubsEmail", { email: "a@" + "a.".repeat(32_000) + "@" }));
    expect(performance.now() - started).toBeLessThan(500);
    expect(answer.status).toBe(400);
    expect(asRecord(answer.body).message).toBe("A field of the request is too long");
    const after = await db
      .selectFrom("newsletterSubscribers")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(toCount(after.n)).toBe(toCount(before.n));
  });

  it(`a field of ${MAX_FIELD_CHARS} characters is read; one more is refused, in a form too`, async () => {
    const json = await call(subscribe, jsonRequest("POST", "/api/stuff/addSubsEmail", { email: "x".repeat(MAX_FIELD_CHARS) }));
    expect(asRecord(json.body).message).toBe("That email address is too long");
    const refused = await call(subscribe, jsonRequest("POST", "/api/stuff/addSubsEmail", { email: "x".repeat(MAX_FIELD_CHARS + 1) }));
    expect(asRecord(refused.body).message).toBe("A field of the request is too long");
    const form = new Request(`${ORIGIN}/api/stuff/addSubsEmail`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
      body: new URLSearchParams({ email: "x".repeat(MAX_FIELD_CHARS + 1) }).toString(),
    });
    expect(asRecord((await call(subscribe, form)).body).message).toBe("A field of the request is too long");
  });
});
