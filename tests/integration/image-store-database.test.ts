// The database image store as the app's own (IMAGE_STORE=database, on SQLite here and the default
// on PostgreSQL): the admin form puts uploads in the `uploads` table and nothing under
// DATA_DIR/uploads; an image stored through one app server is served by another (a second Kysely
// instance on the same database); IMAGE_STORE=disk on PostgreSQL refuses to start; migration 0024
// down and up.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as m0024 from "../../migrations/2026-11-26-0024-uploads";
import { ready } from "~/lib/boot.server";
import type { Db } from "~/lib/db.server";
import { createDb, db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { DatabaseImageStore, DISK_STORE_ON_POSTGRES, imageEtag, imageStore, imageStoreKind, uploadsDir } from "~/lib/image-store.server";
import { checkedUpload, imageFromForm, putUpload, uploadResponse } from "~/lib/uploads.server";
import { grantAdmin } from "~/web/sign-in.server";
import * as productsPage from "~/routes/admin.products";
import { loader } from "~/routes/uploads.$";
import { getRequest, mergeCookies, multipartRequest } from "../support/requests";
import { call } from "../support/route-calls";

vi.hoisted(() => {
  process.env.IMAGE_STORE = "database";
});

// A real 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
const png = () => new File([PNG], "photo.png", { type: "image/png" });

let adminCookie = "";
let categoryId = 0;
/** The second app server's connection to the same database. */
let other: Db;

beforeAll(async () => {
  await ready;
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
  categoryId = (await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow()).id;
  other = createDb(env.DATABASE_URL);
});

afterAll(async () => {
  await other.destroy();
});

const nameOf = (publicPath: string) => publicPath.slice("/uploads/".length);
const get = (name: string, headers: Record<string, string> = {}) => getRequest(`/uploads/${name}`, headers);
const routeArgs = (name: string, headers: Record<string, string> = {}) => ({
  request: get(name, headers),
  params: { "*": name },
  context: {},
});

describe("IMAGE_STORE=database", () => {
  it("is the app's store", () => {
    expect(imageStore.kind).toBe("database");
  });

  it("the admin form's upload is a row of `uploads`, served by /uploads/…, and nothing is written under DATA_DIR/uploads", async () => {
    const fields = {
      intent: "create",
      title: "Database Upload Stool",
      categoryId: String(categoryId),
      price: "4999",
      imgPath: "",
      description: "A stool whose picture lives in the database.",
      inStock: "on",
      stock: "3",
      imageFile: png(),
    };
    const saved = await call(productsPage.action, await multipartRequest("/admin/products?new=1", fields, { Cookie: adminCookie }));
    expect(saved.status).toBe(302);
    const product = await db.selectFrom("items").select("imgPath").where("title", "=", "Database Upload Stool").executeTakeFirstOrThrow();
    expect(product.imgPath).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    const row = await db
      .selectFrom("uploads")
      .select(["contentType", "size", "etag"])
      .where("name", "=", nameOf(product.imgPath))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ contentType: "image/png", size: PNG.byteLength, etag: imageEtag(PNG) });
    const response = await loader(routeArgs(nameOf(product.imgPath)));
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
    expect(fs.existsSync(uploadsDir())).toBe(false);
  });
});

describe("an image and the row that shows it commit together", () => {
  it("an upload put in a transaction that rolls back is not stored; one that commits is", async () => {
    const form = new FormData();
    form.set("imageFile", png());
    const upload = (await checkedUpload(form))!;
    await expect(
      db.transaction().execute(async (trx) => {
        await putUpload(trx, upload);
        expect((await trx.selectFrom("uploads").select("name").where("name", "=", upload.name).execute()).length).toBe(1);
        throw new Error("the row's write failed");
      }),
    ).rejects.toThrow("the row's write failed");
    expect(await imageStore.get(upload.name)).toBeNull();
    await db.transaction().execute((trx) => putUpload(trx, upload));
    expect((await imageStore.get(upload.name))?.bytes.equals(PNG)).toBe(true);
  });

  it("an edit refused as stale stores no image row", async () => {
    const product = await db.selectFrom("items").select(["id", "version", "title", "categoryId"]).orderBy("id").executeTakeFirstOrThrow();
    const before = await db.selectFrom("uploads").select("name").execute();
    const fields = {
      intent: "update",
      id: String(product.id),
      version: String(product.version + 1),
      title: product.title,
      categoryId: String(product.categoryId),
      price: "4999",
      imgPath: "",
      description: "An edit from a form opened before someone else saved.",
      inStock: "on",
      imageFile: png(),
    };
    const refused = await call(
      productsPage.action,
      await multipartRequest(`/admin/products?edit=${product.id}`, fields, { Cookie: adminCookie }),
    );
    expect(refused.status).toBe(409);
    expect(await db.selectFrom("uploads").select("name").execute()).toEqual(before);
  });
});

describe("two app servers on one database", () => {
  it("an image uploaded through one is served by the other, both ways, with the same ETag and a 304 on either", async () => {
    const second = new DatabaseImageStore(other);
    const form = new FormData();
    form.set("imageFile", png());
    const viaSecond = nameOf((await imageFromForm(form, "imageFile", second))!);
    const fromFirst = await loader(routeArgs(viaSecond));
    expect(fromFirst.status).toBe(200);
    expect(fromFirst.headers.get("ETag")).toBe(imageEtag(PNG));
    expect(Buffer.from(await fromFirst.arrayBuffer()).equals(PNG)).toBe(true);

    const viaFirst = nameOf((await imageFromForm(form))!);
    const fromSecond = await uploadResponse(get(viaFirst), viaFirst, second);
    expect(fromSecond.status).toBe(200);
    expect(Buffer.from(await fromSecond.arrayBuffer()).equals(PNG)).toBe(true);
    const revalidated = await uploadResponse(get(viaFirst, { "If-None-Match": fromFirst.headers.get("ETag")! }), viaFirst, second);
    expect(revalidated.status).toBe(304);

    // Deleted through one, gone on the other.
    expect(await imageStore.delete(viaSecond)).toBe(true);
    expect((await uploadResponse(get(viaSecond), viaSecond, second)).status).toBe(404);
    expect(fs.existsSync(uploadsDir())).toBe(false);
  });
});

describe("the bytes one server keeps of recently served images", () => {
  it("serves a popular image without reading its bytes again, yet stops at once when another server deletes it", async () => {
    const second = new DatabaseImageStore(other);
    const form = new FormData();
    form.set("imageFile", png());
    const name = nameOf((await imageFromForm(form))!);
    const first = await uploadResponse(get(name), name, second);
    expect(Buffer.from(await first.arrayBuffer()).equals(PNG)).toBe(true);

    // The row's bytes changed behind its back (a stored image never changes; this only shows which read served it).
    const marked = Buffer.from(PNG);
    marked[marked.length - 1] ^= 0xff;
    await db.updateTable("uploads").set({ bytes: marked }).where("name", "=", name).execute();
    const again = await uploadResponse(get(name), name, second);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(PNG)).toBe(true);
    // A store that keeps nothing (a limit below the image's size) reads the row each time.
    const none = new DatabaseImageStore(other, PNG.byteLength - 1);
    expect(Buffer.from(await (await uploadResponse(get(name), name, none)).arrayBuffer()).equals(marked)).toBe(true);

    // Deleted through the first server: the second answers 404 on its next request, kept bytes or not.
    expect(await imageStore.delete(name)).toBe(true);
    expect((await uploadResponse(get(name), name, second)).status).toBe(404);
  });

  it("keeps at most its byte limit, dropping the least recently served first", async () => {
    const small = new DatabaseImageStore(other, PNG.byteLength * 2);
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const form = new FormData();
      form.set("imageFile", png());
      names.push(nameOf((await imageFromForm(form))!));
    }
    for (const name of names) await small.get(name);
    const marked = Buffer.from(PNG);
    marked[marked.length - 1] ^= 0xff;
    await db.updateTable("uploads").set({ bytes: marked }).where("name", "in", names).execute();
    // The first was dropped for the third; the last two are still kept.
    expect((await small.get(names[0]!))!.bytes.equals(marked)).toBe(true);
    expect((await small.get(names[2]!))!.bytes.equals(PNG)).toBe(true);
  });
});

describe("which store", () => {
  it("unset: disk on SQLite, database on PostgreSQL; either may be chosen on SQLite; disk is refused on PostgreSQL", () => {
    expect(imageStoreKind(undefined, "file:./data/shop.db")).toBe("disk");
    expect(imageStoreKind(undefined, "postgres://shop@db/shop")).toBe("database");
    expect(imageStoreKind(undefined, "postgresql://shop@db/shop")).toBe("database");
    expect(imageStoreKind("database", "file:./data/shop.db")).toBe("database");
    expect(imageStoreKind("disk", "./data/shop.db")).toBe("disk");
    expect(imageStoreKind("database", "postgres://shop@db/shop")).toBe("database");
    expect(() => imageStoreKind("disk", "postgres://shop@db/shop")).toThrow(`Invalid environment: ${DISK_STORE_ON_POSTGRES}`);
  });

  it("a server started with IMAGE_STORE=disk on PostgreSQL fails as it loads, saying why", async () => {
    const saved = { url: process.env.DATABASE_URL, store: process.env.IMAGE_STORE };
    vi.resetModules();
    process.env.DATABASE_URL = "postgres://shop@127.0.0.1:1/shop";
    process.env.IMAGE_STORE = "disk";
    try {
      await expect(import("~/lib/image-store.server")).rejects.toThrow(DISK_STORE_ON_POSTGRES);
    } finally {
      process.env.DATABASE_URL = saved.url;
      process.env.IMAGE_STORE = saved.store;
      vi.resetModules();
    }
  });
});

describe("migration 2026-11-26-0024-uploads", () => {
  it("down drops the table; up makes it again, empty and working", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0024.up>[0];
    await m0024.down(raw);
    await expect(db.selectFrom("uploads").select("name").execute()).rejects.toThrow();
    await m0024.up(raw);
    expect(await db.selectFrom("uploads").select("name").execute()).toEqual([]);
    const form = new FormData();
    form.set("imageFile", png());
    const name = nameOf((await imageFromForm(form))!);
    expect((await imageStore.get(name))?.bytes.equals(PNG)).toBe(true);
  });
});
