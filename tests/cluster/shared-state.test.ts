// What one server does, the other knows (ADR 0020): each test talks to server A and server B
// by their own addresses (not through nginx), one then the other. Nothing may live on one server's
// disk or in its memory: each has its own DATA_DIR; they share only the database (and the mail
// transport's stand-in, the MAIL_DIR folder).
import fs from "node:fs";
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { adminClient, Client, createProduct, eventually, mailsTo, PASSWORD, registerCustomer } from "../support/cluster/client";
import { ADMIN_PASSWORD, query as sql, clusterForFile } from "../support/cluster/setup";

const cluster = clusterForFile();
const A = () => cluster().servers[0]!.url;
const B = () => cluster().servers[1]!.url;

const query = <T>(text: string, params: unknown[] = []) => sql<T>(cluster(), text, params);

/** A product of the demo catalogue with plenty of stock. */
async function anItem(): Promise<{ id: number; slug: string }> {
  const [item] = await query<{ id: number; slug: string }>("select id, slug from items where stock >= 20 order by id limit 1");
  return item!;
}

describe("two app servers behind nginx", () => {
  it("nginx sends consecutive requests to different servers (round-robin, no stickiness)", async () => {
    const marker = crypto.randomBytes(6).toString("hex");
    const visitor = new Client();
    for (let i = 0; i < 8; i += 1) expect((await visitor.send(cluster().url, "GET", `/healthz?probe=${marker}-${i}`)).status).toBe(200);
    // nginx logs no query (tokens, addresses): the visitor's requests are told apart by its own address.
    // The same visitor, with its cookies (none here) and its address: still spread over both.
    // nginx writes a request's line once its answer is sent: the last may come a moment after.
    const upstreams = await eventually(
      async () =>
        fs
          .readFileSync(cluster().nginxLog, "utf8")
          .split("\n")
          .filter((line) => line.includes('"GET /healthz"') && line.endsWith(` ${visitor.address}`))
          .map((line) => line.split(" ")[1]),
      (lines) => lines.length >= 8,
      "nginx's access log of the 8 requests",
      5000,
    );
    expect(upstreams).toHaveLength(8);
    for (let i = 1; i < upstreams.length; i += 1)
      expect(upstreams[i], `request ${i + 1} went where request ${i} went`).not.toBe(upstreams[i - 1]);
    expect(new Set(upstreams)).toEqual(new Set(cluster().servers.map((s) => `127.0.0.1:${s.port}`)));
  });

  it("a sign-in on A is valid on B, and a sign-out on B ends it on A", async () => {
    const customer = await registerCustomer(A(), A(), cluster().mailDir, "signin");
    // The bearer token A issued.
    const profile = await customer.send(B(), "GET", "/api/auth/profile");
    expect(profile.status, profile.text).toBe(200);
    expect(profile.body.user.email).toBe(customer.email);
    // The session cookie of a browser that signed in on A's /login page.
    const browser = new Client();
    const login = await browser.send(A(), "POST", "/login", {
      form: { email: customer.email, password: PASSWORD, redirectTo: "/profile" },
    });
    expect([302, 303]).toContain(login.status);
    expect(browser.cookie).toMatch(/__session=/);
    const page = await browser.send(B(), "GET", "/profile");
    expect(page.status).toBe(200);
    expect(page.text).toContain(customer.email);
    const out = await browser.send(B(), "POST", "/logout", { form: { redirectTo: "/" } });
    expect([302, 303]).toContain(out.status);
    // The old cookie, replayed on A, names no session any more.
    const replay = new Client();
    replay.cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const after = await replay.send(A(), "GET", "/api/auth/profile");
    expect(after.status).toBe(401);
  });

  it("a cart filled through A is read through B (a guest's, by its cookie; a customer's, by its token)", async () => {
    const item = await anItem();
    const guest = new Client();
    const added = await guest.send(A(), "POST", "/api/cart/add", { json: { itemId: item.id, quantity: 2 } });
    expect(added.status, added.text).toBeLessThan(300);
    const read = await guest.send(B(), "GET", "/api/cart/get");
    expect(read.status).toBe(200);
    expect(read.body.items.map((l: { itemId: number; quantity: number }) => [l.itemId, l.quantity])).toEqual([[item.id, 2]]);
    // Changed through B, read through A.
    const line = read.body.items[0].id as number;
    expect((await guest.send(B(), "PUT", "/api/cart/update", { json: { id: line, quantity: 3 } })).status).toBe(200);
    expect((await guest.send(A(), "GET", "/api/cart/get")).body.items[0].quantity).toBe(3);

    const customer = await registerCustomer(B(), B(), cluster().mailDir, "cart");
    expect((await customer.send(B(), "POST", "/api/cart/add", { json: { itemId: item.id, quantity: 1 } })).status).toBeLessThan(300);
    const theirs = await customer.send(A(), "GET", "/api/cart/get");
    expect(theirs.body.items.map((l: { itemId: number; quantity: number }) => [l.itemId, l.quantity])).toEqual([[item.id, 1]]);
  });

  it("a visitor who wrote through A reads through B what the database holds, not what B kept from before", async () => {
    // A write a page shows (a product made by the staff through A): its answer sets the cookie.
    const admin = await adminClient(A(), ADMIN_PASSWORD);
    const [category] = await query<{ id: number }>("select id from categories order by id limit 1");
    const title = `Cluster fresh ${crypto.randomBytes(4).toString("hex")}`;
    const before = admin.cookie;
    await createProduct(admin, A(), { title, categoryId: category!.id, price: 15999, stock: 4 });
    expect(admin.cookie).toContain("shop_wrote=1");
    expect(before).not.toContain("shop_wrote=1");
    const [item] = await query<{ id: number; slug: string }>("select id, slug from items where title = $1", [title]);

    // A shopper with a cart (a write no page shows: no cookie of the kind) reads the product through B twice: B keeps it.
    const shopper = new Client();
    const added = await shopper.send(A(), "POST", "/api/cart/add", { json: { itemId: item!.id, quantity: 1 } });
    expect(added.status, added.text).toBeLessThan(300);
    expect(shopper.cookie).not.toContain("shop_wrote");
    expect((await shopper.send(B(), "GET", `/product/${item!.slug}`)).text).toContain("A piece made for the cluster tests.");

    // The database changes without B hearing of it (no notification): what B kept is now stale,
    // as it is in the moment between another server's commit and its notification's arrival.
    await query("update items set description = $1 where id = $2", ["Written where B did not hear it.", item!.id]);
    expect((await shopper.send(B(), "GET", `/product/${item!.slug}`)).text).toContain("A piece made for the cluster tests.");
    // The visitor who just wrote reads the database.
    const writer = new Client();
    writer.cookie = `${shopper.cookie}; shop_wrote=1`;
    const fresh = await writer.send(B(), "GET", `/product/${item!.slug}`);
    expect(fresh.status).toBe(200);
    expect(fresh.text).toContain("Written where B did not hear it.");
  });

  it("a rate limit counts across both: ten wrong passwords alternating A and B, then the eleventh try is refused on either", async () => {
    const customer = await registerCustomer(A(), A(), cluster().mailDir, "limit");
    // One visitor (one address) guessing: the login limit is 10 tries an email from an address a quarter.
    const guesser = new Client();
    for (let i = 0; i < 10; i += 1) {
      const server = i % 2 === 0 ? A() : B();
      const wrong = await guesser.send(server, "POST", "/api/user/auth/login", {
        json: { email: customer.email, password: `wrong-${i}-pass` },
      });
      expect(wrong.status, `try ${i + 1} on ${server}`).toBe(401);
    }
    for (const server of [A(), B()]) {
      const right = await guesser.send(server, "POST", "/api/user/auth/login", { json: { email: customer.email, password: PASSWORD } });
      expect(right.status, `the right password on ${server} after ten wrong ones`).toBe(429);
    }
  });

  it("a sign-up code mailed by A verifies on B", async () => {
    // registerCustomer registers on A, reads the code from the shared mail folder, verifies on B.
    const customer = await registerCustomer(A(), B(), cluster().mailDir, "code");
    expect((await mailsTo(customer.email, cluster().mailDir)).filter((m) => /verification code/i.test(m.subject))).toHaveLength(1);
    const login = await new Client().send(A(), "POST", "/api/user/auth/login", { json: { email: customer.email, password: PASSWORD } });
    expect(login.status).toBe(200);
  });

  it("an image uploaded through A is served by B, with the same ETag, and revalidates on either", async () => {
    const admin = await adminClient(A(), ADMIN_PASSWORD);
    const [category] = await query<{ id: number }>("select id from categories order by id limit 1");
    // A real 1×1 PNG.
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
    const title = `Cluster bench ${crypto.randomBytes(4).toString("hex")}`;
    const form = new FormData();
    const fields = {
      intent: "create",
      title,
      categoryId: String(category!.id),
      price: "12999",
      imgPath: "",
      description: "A bench.",
      inStock: "on",
      stock: "5",
    };
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set("imageFile", new File([png], "photo.png", { type: "image/png" }));
    const created = await admin.send(A(), "POST", "/admin/products?new=1", { body: form });
    expect([302, 303], created.text.slice(0, 300)).toContain(created.status);
    const [product] = await query<{ imgPath: string }>(`select img_path as "imgPath" from items where title = $1`, [title]);
    expect(product!.imgPath).toMatch(/^\/uploads\//);

    const fromB = await fetch(new URL(product!.imgPath, B()));
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get("Content-Type")).toBe("image/png");
    expect(Buffer.from(await fromB.arrayBuffer()).equals(png)).toBe(true);
    expect(fromB.headers.get("Cache-Control")).toMatch(/max-age=31536000/);
    const etag = fromB.headers.get("ETag");
    expect(etag).toBeTruthy();
    const fromA = await fetch(new URL(product!.imgPath, A()));
    expect(fromA.headers.get("ETag")).toBe(etag);
    for (const server of [A(), B()]) {
      const again = await fetch(new URL(product!.imgPath, server), { headers: { "If-None-Match": etag! } });
      expect(again.status).toBe(304);
    }
  });
});
