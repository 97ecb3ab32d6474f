// Filters by option value on category and search pages (docs/decisions/0036, docs/product.md): a
// category of five products with known options, variants, stock and prices; every rule of a match
// (one active variant with the chosen values; OR within an option, AND across options; availability
// of the matching variant; price of the product) and every count (an option's counts ignore its own
// choice) checked against figures worked out by hand; unknown and malformed parameters ignored; the
// counts follow the variants' writes (kept by the database's triggers, migration 0034).
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, nowIso } from "~/lib/db.server";
import type { FilteredQuery } from "~/models/catalogue/facets.server";
import { facetsOf, knownChoice, withChosen } from "~/models/catalogue/facets.server";
import { listCategoryItemsPage } from "~/models/catalogue/products.server";
import { searchItems } from "~/models/catalogue/search.server";
import { writeVariantSet } from "~/models/catalogue/variant-writes.server";
import * as categoryPage from "~/routes/category.$slug";
import * as searchPage from "~/routes/search";
import { CategoryQuerySchema } from "~/utils/catalogue-schemas";
import type { Facet } from "~/utils/option-filters";
import { parseOptionChoice } from "~/utils/option-filters";
import { parseSearch } from "~/utils/search";
import { RESERVED_OPTION_SLUGS, VariantSetSchema } from "~/utils/variant-schemas";
import { getRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";

const SLUG = "facet-lounge";
let categoryId = 0;
const ids: Record<string, number> = {};

async function product(key: string, price: number, set?: Parameters<typeof writeVariantSet>[2]) {
  const now = nowIso();
  const row = await db
    .insertInto("items")
    .values({
      categoryId,
      title: `Zorblax ${key} Piece`,
      slug: `zorblax-${key.toLowerCase()}`,
      description: "A piece made for the filter tests.",
      price,
      imgPath: "/images/products/x.svg",
      featured: key === "C" ? 1 : 0,
      stock: 3,
      madeToOrder: 0,
      specifications: "{}",
      createdAt: now,
      updatedAt: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  ids[key] = row.id;
  if (set) await db.transaction().execute((trx) => writeVariantSet(trx, row.id, set));
}

const v = (values: string[], sku: string, price: number, stock: number, active = true) => ({ values, sku, price, stock, active });

beforeAll(async () => {
  await ready;
  const now = nowIso();
  categoryId = (
    await db
      .insertInto("categories")
      .values({ title: "Facet Lounge", slug: SLUG, description: "Test", imgPath: "/x.svg", position: 99, createdAt: now, updatedAt: now })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  // A: Velvet/Linen x 2-seater/3-seater; its Velvet 3-seater has no stock.
  await product("A", 40000, {
    options: [
      { name: "Fabric", values: ["Velvet", "Linen"] },
      { name: "Size", values: ["2-seater", "3-seater"] },
    ],
    variants: [
      v(["Velvet", "2-seater"], "ZA-1", 42000, 2),
      v(["Velvet", "3-seater"], "ZA-2", 46000, 0),
      v(["Linen", "2-seater"], "ZA-3", 40000, 2),
      v(["Linen", "3-seater"], "ZA-4", 44000, 2),
    ],
  });
  // B: Velvet (none left) or Suede, no size; the product itself is in stock (its Suede).
  await product("B", 20000, {
    options: [{ name: "Fabric", values: ["Velvet", "Suede"] }],
    variants: [v(["Velvet"], "ZB-1", 20000, 0), v(["Suede"], "ZB-2", 22000, 5)],
  });
  // C: Suede 3-seater only, featured.
  await product("C", 60000, {
    options: [
      { name: "Fabric", values: ["Suede"] },
      { name: "Size", values: ["3-seater"] },
    ],
    variants: [v(["Suede", "3-seater"], "ZC-1", 60000, 4)],
  });
  // D: sold as one piece, no options.
  await product("D", 10000);
  // E: its Velvet is no longer sold (inactive), its Linen is.
  await product("E", 25000, {
    options: [{ name: "Fabric", values: ["Velvet", "Linen"] }],
    variants: [v(["Velvet"], "ZE-1", 26000, 5, false), v(["Linen"], "ZE-2", 25000, 1)],
  });
});

const query = (raw: Record<string, string | string[]>, options: Record<string, string[]> = {}): FilteredQuery => ({
  ...CategoryQuerySchema.parse(raw),
  options,
});

async function listed(raw: Record<string, string | string[]>, options: Record<string, string[]>) {
  const page = await listCategoryItemsPage(categoryId, query(raw, options), { offset: 0, limit: 24 });
  const keys = page.rows.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));
  return { keys, total: page.total };
}

/** The counts as "Fabric: Linen 2, Suede 2, Velvet 2" lines, in the facets' order. */
const shown = (facets: Facet[]) =>
  facets.map((f) => `${f.name}: ${f.values.map((x) => `${x.label} ${x.count}${x.chosen ? "*" : ""}`).join(", ")}`);

describe("filters by option value", () => {
  it("match a product with ONE active variant that has the chosen values: OR within an option, AND across options", async () => {
    expect(await listed({}, { fabric: ["velvet"] })).toEqual({ keys: ["A", "B"], total: 2 });
    expect(await listed({}, { fabric: ["velvet", "suede"] })).toEqual({ keys: ["A", "B", "C"], total: 3 });
    expect(await listed({}, { fabric: ["velvet"], size: ["3-seater"] })).toEqual({ keys: ["A"], total: 1 });
    // C is Suede 3-seater and A has Linen 3-seater: a variant of Suede or Linen in 3-seater.
    expect(await listed({}, { fabric: ["suede", "linen"], size: ["3-seater"] })).toEqual({ keys: ["A", "C"], total: 2 });
    // E's Velvet is not sold: E never matches Velvet.
    expect((await listed({}, { fabric: ["velvet"] })).keys).not.toContain("E");
  });

  it("availability is the matching variant's: In Stock wants a matching variant with stock", async () => {
    expect(await listed({ availability: "in-stock" }, { fabric: ["velvet"] })).toEqual({ keys: ["A"], total: 1 });
    // A has Velvet 3-seater, but none left: not listed, though A itself has stock.
    expect(await listed({ availability: "in-stock" }, { fabric: ["velvet"], size: ["3-seater"] })).toEqual({ keys: [], total: 0 });
    // B has stock (Suede) but none of its Velvet: out of stock in Velvet.
    expect(await listed({ availability: "out-of-stock" }, { fabric: ["velvet"] })).toEqual({ keys: ["B"], total: 1 });
    expect(await listed({ availability: ["in-stock", "out-of-stock"] }, { fabric: ["velvet"] })).toEqual({ keys: ["A", "B"], total: 2 });
  });

  it("combine with the price ranges (the product's lowest price), featured, the sorts and the pages", async () => {
    expect(await listed({ price: "15000-30000" }, { fabric: ["velvet"] })).toEqual({ keys: ["B"], total: 1 });
    expect(await listed({ featured: "1" }, { fabric: ["suede"] })).toEqual({ keys: ["C"], total: 1 });
    expect(await listed({ sort: "price-desc" }, { fabric: ["velvet", "suede"] })).toEqual({ keys: ["C", "A", "B"], total: 3 });
    expect(await listed({ sort: "price-asc" }, { fabric: ["velvet", "suede"] })).toEqual({ keys: ["B", "A", "C"], total: 3 });
    const second = await listCategoryItemsPage(categoryId, query({ sort: "price-asc" }, { fabric: ["velvet", "suede"] }), {
      offset: 2,
      limit: 2,
    });
    expect({ ids: second.rows.map((r) => r.id), total: second.total }).toEqual({ ids: [ids.C], total: 3 });
  });

  it("count each value under the other filters, an option's own choice left out", async () => {
    const scope = { categoryId };
    // As the pages show them: in the order of the list before any filter, a chosen value always there.
    const all = await facetsOf(db, scope, query({}));
    const counts = async (where: typeof scope, q: FilteredQuery) =>
      withChosen(all, await facetsOf(db, where, q), knownChoice(q.options, all));
    expect(shown(await facetsOf(db, scope, query({})))).toEqual(["Fabric: Velvet 2, Linen 2, Suede 2", "Size: 2-seater 1, 3-seater 2"]);
    expect(shown(await counts(scope, query({}, { fabric: ["velvet"] })))).toEqual([
      "Fabric: Velvet 2*, Linen 2, Suede 2",
      "Size: 2-seater 1, 3-seater 1",
    ]);
    // In stock and 3-seater: A's Velvet 3-seater has none; Size counts ignore the 3-seater choice.
    expect(shown(await counts(scope, query({ availability: "in-stock" }, { size: ["3-seater"] })))).toEqual([
      "Fabric: Linen 1, Suede 1",
      "Size: 2-seater 1, 3-seater 2*",
    ]);
    expect(shown(await counts(scope, query({ price: "15000-30000" })))).toEqual(["Fabric: Velvet 1, Linen 1, Suede 1"]);
    // A chosen value that leaves nothing is still shown, with 0, so it can be unchosen.
    expect(shown(await counts(scope, query({ featured: "1" }, { fabric: ["velvet"] })))).toEqual(["Fabric: Velvet 0*, Suede 1"]);
    expect(shown(await counts(scope, query({ availability: "out-of-stock" }, { fabric: ["velvet"] })))).toEqual([
      "Fabric: Velvet 1*",
      "Size: 3-seater 1",
    ]);
  });

  it("follow the variants' writes: stock crossing zero, a variant stopped or resumed, a product moved", async () => {
    const scope = { categoryId };
    const velvetStock = () => listed({ availability: "in-stock" }, { fabric: ["velvet"] });
    await db.updateTable("productVariants").set({ stock: 1 }).where("sku", "=", "ZB-1").execute();
    expect(await velvetStock()).toEqual({ keys: ["A", "B"], total: 2 });
    await db.updateTable("productVariants").set({ stock: 0 }).where("sku", "=", "ZB-1").execute();
    expect(await velvetStock()).toEqual({ keys: ["A"], total: 1 });
    await db.updateTable("productVariants").set({ active: 1 }).where("sku", "=", "ZE-1").execute();
    expect((await listed({}, { fabric: ["velvet"] })).keys).toEqual(["A", "B", "E"]);
    await db.updateTable("productVariants").set({ active: 0 }).where("sku", "=", "ZE-1").execute();
    expect((await listed({}, { fabric: ["velvet"] })).keys).toEqual(["A", "B"]);
    // A price change of the product's cheapest variant moves it in and out of a price range.
    await db.updateTable("productVariants").set({ price: 29000 }).where("sku", "=", "ZA-3").execute();
    expect((await listed({ price: "15000-30000" }, { fabric: ["linen"] })).keys).toEqual(["A", "E"]);
    await db.updateTable("productVariants").set({ price: 40000 }).where("sku", "=", "ZA-3").execute();
    expect((await listed({ price: "15000-30000" }, { fabric: ["linen"] })).keys).toEqual(["E"]);
    const other = (await db.selectFrom("categories").select("id").where("slug", "<>", SLUG).executeTakeFirstOrThrow()).id;
    await db.updateTable("items").set({ categoryId: other }).where("id", "=", ids.C!).execute();
    expect(shown(await facetsOf(db, scope, query({})))).toEqual(["Fabric: Velvet 2, Linen 2, Suede 1", "Size: 2-seater 1, 3-seater 1"]);
    await db.updateTable("items").set({ categoryId }).where("id", "=", ids.C!).execute();
    expect(shown(await facetsOf(db, scope, query({})))).toEqual(["Fabric: Velvet 2, Linen 2, Suede 2", "Size: 2-seater 1, 3-seater 2"]);
  });

  it("the category page: the chosen value's products and counts; unknown or malformed parameters ignored, never a failure", async () => {
    const page = async (qs: string) => {
      const answer = await call(categoryPage.loader, getRequest(`/category/${SLUG}?${qs}`), { slug: SLUG });
      const body = asRecord(answer.body);
      return {
        status: answer.status,
        titles: (body.items as { title: string }[]).map((i) => i.title.split(" ")[1]),
        facets: shown(body.facets as Facet[]),
        filtersActive: body.filtersActive,
      };
    };
    const velvet = await page("fabric=velvet");
    expect(velvet).toEqual({
      status: 200,
      titles: ["A", "B"],
      facets: ["Fabric: Velvet 2*, Linen 2, Suede 2", "Size: 2-seater 1, 3-seater 1"],
      filtersActive: true,
    });
    const all = await page("");
    expect(all.titles).toEqual(["A", "B", "C", "D", "E"]);
    expect(all.filtersActive).toBe(false);
    // An option no product here has, a value none has, values and names that are not slugs, a huge list: ignored.
    for (const qs of [
      "colour=red",
      "fabric=tweed",
      "fabric=VELVET",
      "fabric=%3Cscript%3E",
      "fabric=",
      "Fabric=velvet",
      `fabric=${"x".repeat(500)}`,
      "fabric[]=velvet",
      Array.from({ length: 300 }, (_, i) => `o${i}=v${i}`).join("&"),
    ]) {
      const answer = await page(qs);
      expect(answer, qs).toEqual({ ...all, status: 200 });
    }
    // A known value beside an unknown one: the known one applies.
    expect((await page("fabric=velvet&fabric=tweed")).titles).toEqual(["A", "B"]);
    // With the sort, a page number and a bad filter of the list's own (400 with the note, as before).
    expect((await page("fabric=velvet&sort=price-desc&page=1")).titles).toEqual(["A", "B"]);
    expect((await page("fabric=velvet&availability=soon")).status).toBe(400);
  });

  it("search pages filter among the matches and count as a category page does", async () => {
    const words = parseSearch("zorblax").words;
    const found = await searchItems(words, query({}, { fabric: ["suede"] }), { offset: 0, limit: 24 }, db, true);
    expect(found.rows.map((r) => r.id)).toEqual([ids.B, ids.C]);
    expect(shown(found.facets!)).toEqual(["Fabric: Velvet 2, Linen 2, Suede 2*", "Size: 3-seater 1"]);
    // An option the matches do not have is ignored.
    const ignored = await searchItems(words, query({}, { colour: ["red"] }), { offset: 0, limit: 24 }, db, true);
    expect(ignored.total).toBe(5);
    const answer = await call(searchPage.loader, getRequest("/search?q=zorblax&fabric=velvet&size=3-seater&sort=price-asc"));
    const body = asRecord(answer.body);
    expect(answer.status).toBe(200);
    expect((body.items as { id: number }[]).map((i) => i.id)).toEqual([ids.A]);
    expect(body.filtersActive).toBe(true);
  });

  it("no option may be named like a parameter the lists read, and those parameters are never read as options", () => {
    const params = new URLSearchParams(
      "q=sofa&sort=price-asc&page=2&pageSize=10&availability=in-stock&price=under-15000&featured=1&slug=x",
    );
    expect(parseOptionChoice(params)).toEqual({});
    for (const name of ["Sort", "Page", "PageSize", "Price", "Availability", "Featured", "Q", "Slug"]) {
      expect(RESERVED_OPTION_SLUGS, name).toContain(name.toLowerCase());
      const set = VariantSetSchema.safeParse({
        options: [{ name, values: ["A"] }],
        variants: [{ values: ["A"], sku: "AB-1", price: 1, stock: 1 }],
      });
      expect(set.success, name).toBe(false);
    }
  });
});
