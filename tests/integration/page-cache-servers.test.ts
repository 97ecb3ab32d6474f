// The anonymous page cache with two app servers on one PostgreSQL (ADRs 0016, 0020): server A
// is this process's own database and page cache; server B is a second Kysely instance with a data
// generation and a listening connection of its own, and a page cache of its own whose pages never
// expire by time (its clock stands still), so only the database can tell it of A's writes.
// On SQLite (one server) there is nothing to tell: the file is skipped.
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import type { Db } from "~/lib/db.server";
import { createDb, db, isPostgresUrl } from "~/lib/db.server";
import type { WriteState } from "~/lib/write-watch.server";
import { createWriteState, sharedWrites, whenListening, WRITES_CHANNEL } from "~/lib/write-watch.server";
import { grantAdmin } from "~/web/sign-in.server";
import { createPageCache } from "../../server/page-cache";
import { saveProductForm } from "../support/admin-products";
import { createTestItem } from "../support/items";
import { getRequest, mergeCookies, ORIGIN } from "../support/requests";

const url = process.env.DATABASE_URL ?? "";
const uid = () => crypto.randomBytes(4).toString("hex");

/** Waits until `done()` holds, at most `ms` (a notification is asynchronous: it comes within milliseconds). */
async function until(done: () => boolean, ms = 3000): Promise<number> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Date.now() - started;
}

describe.skipIf(!isPostgresUrl(url))("two app servers on one PostgreSQL", () => {
  let adminCookie = "";
  let writesB: WriteState;
  let dbB: Db;

  beforeAll(async () => {
    await ready;
    adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
    writesB = createWriteState();
    dbB = createDb(url, { writes: writesB });
    await Promise.all([whenListening(sharedWrites), whenListening(writesB)]);
  });

  afterAll(async () => {
    await dbB?.destroy();
  });

  /** Server B's page cache, rendering a product's title and price from B's own database. */
  function serverB() {
    const cache = createPageCache({ generation: () => writesB.generation, now: () => 0 });
    let renders = 0;
    const render = async (request: Request) => {
      renders++;
      const slug = new URL(request.url).pathname.split("/").pop() ?? "";
      const item = await dbB.selectFrom("items").select(["title", "price"]).where("slug", "=", slug).executeTakeFirstOrThrow();
      const nonce = crypto.randomBytes(16).toString("base64");
      return new Response(`<p>${item.title} ₹${item.price}</p><script nonce="${nonce}">1</script>`, {
        headers: { "Content-Type": "text/html", "Content-Security-Policy": `script-src 'nonce-${nonce}'` },
      });
    };
    const visit = async (path: string) => {
      const response = await cache.handle(new Request(`${ORIGIN}${path}`), render);
      return { state: response.headers.get("X-Page-Cache"), body: await response.text() };
    };
    return { visit, renders: () => renders };
  }

  /** A product made through A, once B has heard of it. */
  async function productThroughA(price: number) {
    const slug = `servers-${uid()}`;
    const before = writesB.count;
    const id = await createTestItem(slug, { price });
    await until(() => writesB.count !== before);
    return { id, slug };
  }

  it("a product edit through A shows through B at once: B's cached page goes with A's commit, not after its time", async () => {
    const { id, slug } = await productThroughA(4000);
    const b = serverB();
    expect((await b.visit(`/product/${slug}`)).state).toBe("miss");
    expect(await b.visit(`/product/${slug}`)).toMatchObject({ state: "hit", body: expect.stringContaining(`Test ${slug} ₹4000`) });

    const before = writesB.count;
    await saveProductForm(adminCookie, id, { title: `Renamed ${slug}`, price: "4321" });
    // B wrote nothing: only A's notification moves its generation, within milliseconds.
    const waited = await until(() => writesB.count !== before);
    expect(waited).toBeLessThan(1000);
    const after = await b.visit(`/product/${slug}`);
    expect(after.state).toBe("miss");
    expect(after.body).toContain(`Renamed ${slug} ₹4321`);
    expect((await b.visit(`/product/${slug}`)).state).toBe("hit");
    expect(b.renders()).toBe(2);
  });

  it("one notification per committed transaction that wrote what a page shows; none for a rollback or a write no page shows", async () => {
    // A third connection of its own (one pooled connection), whose notifications a bare listener picks out by its process id.
    const dbC = createDb(url, { writes: createWriteState() });
    const sentinel = new pg.Client({ connectionString: url });
    try {
      const { pid } = await dbC.connection().execute(async (c) => {
        const row = await c.selectNoFrom((eb) => eb.fn<number>("pg_backend_pid").as("pid")).executeTakeFirstOrThrow();
        const slug = `servers-${uid()}`;
        await sentinel.connect();
        const heard: number[] = [];
        sentinel.on("notification", (n) => n.channel === WRITES_CHANNEL && n.processId === row.pid && heard.push(n.processId));
        await sentinel.query(`listen ${WRITES_CHANNEL}`);
        const id = await createTestItem(slug);
        // Rolled back: nothing is announced.
        await c
          .transaction()
          .execute(async (trx) => {
            await trx.updateTable("items").set({ title: "never" }).where("id", "=", id).execute();
            throw new Error("rolled back");
          })
          .catch(() => {});
        // Rate limits and sessions: no cookie-less page shows them.
        await c
          .insertInto("rateLimits")
          .values({ key: `servers-${uid()}`, count: 1, resetAt: new Date(Date.now() + 60_000).toISOString() })
          .execute();
        // Three counted writes in one transaction: one notification, with the commit.
        await c.transaction().execute(async (trx) => {
          for (const price of [1, 2, 3]) await trx.updateTable("productVariants").set({ price }).where("itemId", "=", id).execute();
        });
        await until(() => heard.length >= 1);
        // A counted write outside a transaction: one notification, right after it.
        await c.updateTable("productVariants").set({ price: 4 }).where("itemId", "=", id).execute();
        await until(() => heard.length >= 2);
        // Notifications of one session arrive in commit order: none came before the transaction's.
        expect(heard).toHaveLength(2);
        return row;
      });
      expect(pid).toBeGreaterThan(0);
    } finally {
      await sentinel.end();
      await dbC.destroy();
    }
  });

  it("while B's listening connection is down, B caches nothing; back, it caches again and shows what was written meanwhile", async () => {
    const { id, slug } = await productThroughA(4000);
    const b = serverB();
    await b.visit(`/product/${slug}`);
    expect((await b.visit(`/product/${slug}`)).state).toBe("hit");

    const listener = writesB.listen!();
    const pid = listener.pid;
    expect(pid).toBeGreaterThan(0);
    await db.selectNoFrom((eb) => eb.fn("pg_terminate_backend", [eb.val(pid)]).as("ended")).execute();
    await until(() => writesB.generation === null);
    // Down: every visit is rendered, and nothing is kept.
    const rendered = b.renders();
    await b.visit(`/product/${slug}`);
    await b.visit(`/product/${slug}`);
    expect(b.renders()).toBe(rendered + 2);
    // A write B cannot hear now.
    await db
      .updateTable("items")
      .set({ title: `While down ${slug}` })
      .where("id", "=", id)
      .execute();
    // Back (it connects again after a second): caching again, from what the database holds now.
    await until(() => writesB.generation !== null, 5000);
    expect(listener.pid).not.toBe(pid);
    const back = await b.visit(`/product/${slug}`);
    expect(back.state).toBe("miss");
    expect(back.body).toContain(`While down ${slug}`);
    expect((await b.visit(`/product/${slug}`)).state).toBe("hit");
  });
});
