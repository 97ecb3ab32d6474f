// A prepared read runs each call with that call's values, never a kept call's: through one shape
// again, with lists of other lengths, and on both databases (npm run test:pg runs this file too).
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "./boot.server";
import { db } from "./db.server";
import { preparedRead } from "./prepared-read.server";

beforeAll(async () => {
  await ready;
});

/** Categories by slug, with or without a title filter (the shape). */
function categories(slugs: string[], titleLike: string | null) {
  return preparedRead(db, "test.categories", titleLike === null ? "all" : "titled", { slugs, titleLike: titleLike ?? "" }, (a) => {
    const query = db.selectFrom("categories").select(["slug", "title"]).where("slug", "in", a.slugs).orderBy("slug");
    return titleLike === null ? query : query.where("title", "like", a.titleLike);
  });
}

describe("preparedRead", () => {
  it("answers each call with its own values, one shape after another", async () => {
    expect(await categories(["office"], null)).toEqual([{ slug: "office", title: "Office" }]);
    expect(await categories(["outdoor"], null)).toEqual([{ slug: "outdoor", title: "Outdoor" }]);
    expect(await categories(["bedroom", "office"], null)).toEqual([
      { slug: "bedroom", title: "Bedroom" },
      { slug: "office", title: "Office" },
    ]);
    expect(await categories(["bedroom", "outdoor"], "Out%")).toEqual([{ slug: "outdoor", title: "Outdoor" }]);
    expect(await categories(["bedroom", "outdoor"], "Bed%")).toEqual([{ slug: "bedroom", title: "Bedroom" }]);
    expect(await categories(["nowhere"], null)).toEqual([]);
  });

  it("answers lists of every length, more shapes than a database keeps", async () => {
    const slugs = ["bedroom", "dining-room", "living-room", "office", "outdoor"];
    for (let length = 1; length <= 250; length++) {
      const asked = Array.from({ length }, (_, i) => (i < slugs.length ? slugs[i]! : `none-${i}`));
      const rows = await categories(asked, null);
      expect(rows.map((r) => r.slug)).toEqual(slugs.slice(0, Math.min(length, slugs.length)));
    }
    expect(await categories(["office"], null)).toEqual([{ slug: "office", title: "Office" }]);
  });

  it("refuses a value written into the query instead of taken from its arguments", async () => {
    const read = (slug: string) =>
      preparedRead(db, "test.literal", "", { slug }, (a) =>
        db.selectFrom("categories").select("slug").where("slug", "=", a.slug).where("title", "!=", "Nothing"),
      );
    await expect(read("office")).rejects.toThrow("prepared read test.literal: a value not given in its arguments");
    const raw = (slug: string) =>
      preparedRead(db, "test.raw", "", { slug }, (a) =>
        db
          .selectFrom("categories")
          .select("slug")
          .where(sql<boolean>`slug = ${slug}`)
          .where("slug", "=", a.slug),
      );
    await expect(raw("office")).rejects.toThrow("prepared read test.raw: a value not given in its arguments");
  });

  it("under tests, a shape that holds two different queries is an error", async () => {
    const read = (slug: string, byTitle: boolean) =>
      preparedRead(db, "test.oneShape", "same", { slug }, (a) =>
        db
          .selectFrom("categories")
          .select("slug")
          .where(byTitle ? "title" : "slug", "=", a.slug),
      );
    expect(await read("office", false)).toEqual([{ slug: "office" }]);
    await expect(read("Office", true)).rejects.toThrow('prepared read test.oneShape: shape "same" holds two different queries');
  });
});
