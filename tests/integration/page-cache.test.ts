// The anonymous page cache (server/page-cache.ts, ADR 0016): who gets a cached page, that each
// answer carries a nonce of its own, and that every kind of write a page can show (an admin
// edit, a CSV import, stock sold by an order and put back by a cancellation, a write racing a
// render) makes the next visitor get a freshly rendered page. The "page" here is the product
// page's own loader, rendered as HTML with a nonce the way entry.server.tsx does.
import { setItemFigures } from "../support/items";
import crypto from "node:crypto";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { dataGeneration, whenListening } from "~/lib/write-watch.server";
import { CSV_COLUMNS } from "~/utils/product-csv";
import { exportProductsCsv } from "~/models/catalogue/csv-export.server";
import { importProductsCsv } from "~/models/catalogue/csv-import.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { loader as productLoader } from "~/routes/product.$slug";
import { grantAdmin } from "~/web/sign-in.server";
import { createPageCache, isCacheableRequest } from "../../server/page-cache";
import { saveProductForm } from "../support/admin-products";
import { createTestItem } from "../support/items";
import { getRequest, mergeCookies, ORIGIN } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, newCustomer, placeViaApi } from "../support/orders";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

let adminCookie = "";
let buyer: Customer;

beforeAll(async () => {
  await ready;
  // On PostgreSQL nothing is cached until this process listens for other servers' writes.
  await whenListening();
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
  buyer = await newCustomer("page-cache");
});

const uid = () => crypto.randomBytes(4).toString("hex");

/** The product page's data as HTML, with a fresh nonce in two places and the CSP header, like entry.server.tsx. */
function productPage() {
  let renders = 0;
  const render = async (request: Request): Promise<Response> => {
    renders++;
    const slug = new URL(request.url).pathname.split("/").pop() ?? "";
    const answer = await call(productLoader, request, { slug });
    const item = asRecord(asRecord(answer.body).item);
    const nonce = crypto.randomBytes(16).toString("base64");
    const scripts = `<script nonce="${nonce}">1</script><script nonce="${nonce}" src="/a.js"></script>`;
    const html = `<html><body><p>${item.title} ₹${item.price} stock ${item.stock}</p>${scripts}</body></html>`;
    return new Response(html, {
      status: answer.status,
      headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": `script-src 'self' 'nonce-${nonce}'` },
    });
  };
  return { render, renders: () => renders };
}

const visit = (cache: ReturnType<typeof createPageCache>, render: (r: Request) => Promise<Response>, path: string, headers = {}) =>
  cache.handle(new Request(`${ORIGIN}${path}`, { headers }), render);

async function shown(response: Response) {
  const body = await response.text();
  const nonces = [...body.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]);
  return { body, nonces, state: response.headers.get("X-Page-Cache"), csp: response.headers.get("Content-Security-Policy") ?? "" };
}

async function product(stock = 20, price = 4000) {
  const slug = `cache-${uid()}`;
  return { id: await createTestItem(slug, { stock, price }), slug, path: `/product/${slug}` };
}

describe("what a cached page tells", () => {
  it("in production, nothing says whether another visitor opened the URL (no X-Page-Cache header)", async () => {
    const page = productPage();
    const p = await product();
    const cache = createPageCache({ generation: dataGeneration, stateHeader: false });
    for (let i = 0; i < 2; i++) expect((await visit(cache, page.render, p.path)).headers.has("X-Page-Cache")).toBe(false);
    expect(page.renders()).toBe(1);
  });
});

describe("who gets a cached page", () => {
  it("a second anonymous visit is served from the cache, each answer with a nonce of its own in the page and the header", async () => {
    const cache = createPageCache({ generation: dataGeneration });
    const page = productPage();
    const p = await product();
    const first = await shown(await visit(cache, page.render, p.path));
    const second = await shown(await visit(cache, page.render, p.path));
    const third = await shown(await visit(cache, page.render, p.path));
    expect([first.state, second.state, third.state]).toEqual(["miss", "hit", "hit"]);
    expect(page.renders()).toBe(1);
    for (const view of [first, second, third]) {
      expect(view.nonces).toHaveLength(2);
      expect(new Set(view.nonces).size).toBe(1);
      expect(view.csp).toContain(`'nonce-${view.nonces[0]}'`);
    }
    const nonces = [first, second, third].map((v) => v.nonces[0]);
    expect(new Set(nonces).size).toBe(3);
    expect(second.body).not.toContain(first.nonces[0]);
    expect(second.body.replaceAll(second.nonces[0]!, "N")).toBe(first.body.replaceAll(first.nonces[0]!, "N"));
  });

  it("a visitor with any cookie or a bearer token always gets a page rendered for them, and fills nothing", async () => {
    const cache = createPageCache({ generation: dataGeneration });
    let renders = 0;
    const render = async () => {
      renders++;
      return new Response(`<p nonce="${"A".repeat(22)}==">hello</p>`, {
        headers: { "Content-Type": "text/html", "Content-Security-Policy": `script-src 'nonce-${"A".repeat(22)}=='` },
      });
    };
    for (const headers of [
      { Cookie: "__session=abc" },
      { Authorization: "Bearer x" },
      { Cookie: "__toast=1" },
      { Cookie: "__session=abc" },
    ]) {
      const view = await shown(await visit(cache, render, "/product/anything", headers));
      expect(view.state).toBeNull();
    }
    expect(renders).toBe(4);
    expect(cache.size).toBe(0);
  });

  it("never caches the API, the back-office, data requests, other methods, errors or answers that set a cookie", async () => {
    for (const path of [
      "/api/category/items?slug=x",
      "/admin/products",
      "/product/x.data",
      "/__manifest?p=/",
      "/images/hero/1.svg",
      "/rzp/x",
    ]) {
      expect(isCacheableRequest(new Request(`${ORIGIN}${path}`))).toBe(false);
    }
    expect(isCacheableRequest(new Request(`${ORIGIN}/product/x`, { method: "POST", body: "a=1" }))).toBe(false);
    expect(isCacheableRequest(new Request(`${ORIGIN}/category/living-room?page=2`))).toBe(true);

    const cache = createPageCache({ generation: dataGeneration });
    const csp = "script-src 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='";
    const answers = [
      new Response("<p>missing</p>", { status: 404, headers: { "Content-Type": "text/html", "Content-Security-Policy": csp } }),
      new Response("<p>x</p>", { headers: { "Content-Type": "text/html", "Content-Security-Policy": csp, "Set-Cookie": "a=1" } }),
      new Response("<p>no nonce</p>", { headers: { "Content-Type": "text/html" } }),
      new Response("{}", { headers: { "Content-Type": "application/json", "Content-Security-Policy": csp } }),
    ];
    for (const answer of answers) await visit(cache, async () => answer.clone(), `/somewhere-${uid()}`);
    expect(cache.size).toBe(0);
  });

  it("keeps a page at most ttlMs, and at most maxEntries pages (least recently used dropped first)", async () => {
    let clock = 0;
    const cache = createPageCache({ generation: dataGeneration, ttlMs: 1000, maxEntries: 2, now: () => clock });
    const page = productPage();
    const [a, b, c] = [await product(), await product(), await product()];
    await visit(cache, page.render, a.path);
    clock = 999;
    expect((await visit(cache, page.render, a.path)).headers.get("X-Page-Cache")).toBe("hit");
    clock = 1000;
    expect((await visit(cache, page.render, a.path)).headers.get("X-Page-Cache")).toBe("miss");
    await visit(cache, page.render, b.path);
    await visit(cache, page.render, a.path);
    await visit(cache, page.render, c.path);
    expect(cache.size).toBe(2);
    expect((await visit(cache, page.render, b.path)).headers.get("X-Page-Cache")).toBe("miss");
  });
});

describe("what a page shows is never older than the last write", () => {
  /** Warms the cache for the product, runs `write`, and answers what the next two anonymous visits show. */
  async function across(p: { path: string }, write: () => Promise<unknown>) {
    const cache = createPageCache({ generation: dataGeneration });
    const page = productPage();
    await visit(cache, page.render, p.path);
    expect((await shown(await visit(cache, page.render, p.path))).state).toBe("hit");
    const before = dataGeneration();
    await write();
    expect(dataGeneration()).not.toBe(before);
    const after = await shown(await visit(cache, page.render, p.path));
    const again = await shown(await visit(cache, page.render, p.path));
    return { after, again, renders: page.renders() };
  }

  it("an admin edit of the product (price and stock) shows at once", async () => {
    const p = await product(20, 4000);
    const { after, again, renders } = await across(p, () => saveProductForm(adminCookie, p.id, { price: "4321", stockDelta: "+5" }));
    expect(after.state).toBe("miss");
    expect(after.body).toContain("₹4321 stock 25");
    expect(again.state).toBe("hit");
    expect(renders).toBe(2);
  });

  it("a CSV import that reprices the product shows at once", async () => {
    const p = await product(20, 4000);
    const { after } = await across(p, async () => {
      const [columns, ...rows] = parse(await exportProductsCsv({ q: "", category: "all" }), { bom: true }) as string[][];
      expect(columns).toEqual([...CSV_COLUMNS]);
      const row = rows.find((r) => r[columns!.indexOf("slug")] === p.slug);
      expect(row).toBeDefined();
      row![columns!.indexOf("price")] = "3999";
      await importProductsCsv(stringify([columns!, row!]), BUILTIN_OWNER);
    });
    expect(after.state).toBe("miss");
    expect(after.body).toContain("₹3999 stock 20");
  });

  it("stock sold by an order and put back by its cancellation shows at once", async () => {
    const p = await product(20, 4000);
    let orderId = 0;
    const sold = await across(p, async () => {
      await addToCart(buyer, p.id, 3);
      const placed = await placeViaApi(buyer, checkoutFields());
      expect(placed.status).toBe(201);
      orderId = asRecord(placed.body).id as number;
    });
    expect(sold.after.state).toBe("miss");
    expect(sold.after.body).toContain("stock 17");
    const back = await across(p, () => changeOrderStatus(orderId, "cancelled", { actor: "customer", userId: buyer.user.id }));
    expect(back.after.state).toBe("miss");
    expect(back.after.body).toContain("stock 20");
  });

  it("a page rendered while a write ran is not kept", async () => {
    const cache = createPageCache({ generation: dataGeneration });
    const p = await product(20, 4000);
    const page = productPage();
    const racing = async (request: Request) => {
      const response = await page.render(request);
      await setItemFigures(p.id, { stock: 7 });
      return response;
    };
    expect((await shown(await visit(cache, racing, p.path))).body).toContain("stock 20");
    const next = await shown(await visit(cache, page.render, p.path));
    expect(next.state).toBe("miss");
    expect(next.body).toContain("stock 7");
  });

  it("writes no cookie-less page shows (sessions, rate limits, the mail outbox, leases) leave cached pages in place", async () => {
    const cache = createPageCache({ generation: dataGeneration });
    const p = await product();
    const page = productPage();
    await visit(cache, page.render, p.path);
    const before = dataGeneration();
    await db
      .insertInto("rateLimits")
      .values({ key: `page-cache-${uid()}`, count: 1, resetAt: new Date(Date.now() + 60_000).toISOString() })
      .execute();
    await db.deleteFrom("sessions").where("id", "=", "no-such-session").execute();
    // Written by every server's workers and boots (the mail outbox, leases, shared secrets).
    await db.deleteFrom("mailOutbox").where("id", "=", -1).execute();
    await db.deleteFrom("leases").where("name", "=", "no-such-lease").execute();
    await db.deleteFrom("sharedSecrets").where("name", "=", "no-such-secret").execute();
    expect(dataGeneration()).toBe(before);
    expect((await visit(cache, page.render, p.path)).headers.get("X-Page-Cache")).toBe("hit");
  });
});
