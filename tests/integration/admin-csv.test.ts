// The back-office's product CSV routes, called as Remix calls them: the export download and the
// import page's loader and action, with and without the admin flag.
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "~/web/sign-in.server";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { readToasts } from "~/lib/toast.server";
import { CSV_COLUMNS, PRODUCT_COLUMNS } from "~/utils/product-csv";
import { NOTHING_IMPORTED } from "~/models/catalogue/csv-read.server";
import { action as exportAction, loader as exportLoader } from "~/routes/admin.products_.export[.csv]";
import { action as importAction, loader as importLoader } from "~/routes/admin.products_.import";
import { getRequest, mergeCookies, multipartRequest, ORIGIN } from "../support/requests";
import { asRecord, call, setCookies } from "../support/route-calls";

let adminCookie = "";

beforeAll(async () => {
  await ready;
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
});

async function snapshot() {
  const items = await db.selectFrom("items").selectAll().orderBy("id").execute();
  const audit = await db.selectFrom("auditLog").selectAll().orderBy("id").execute();
  return { items, audit };
}

/** The import form's multipart POST. */
const uploadRequest = (fields: Record<string, File | string>, headers: Record<string, string> = {}) =>
  multipartRequest("/admin/products/import", fields, headers);

/** A file of the columns before products had variants (such files still import). */
const csvFileOf = (rows: string[][]) => new File([stringify([[...PRODUCT_COLUMNS], ...rows])], "products.csv", { type: "text/csv" });

/** A row of the file; `version` is an existing product's (as the export writes it), blank for a new one. */
function row(title: string, price: string, slug = "", category = "office", version = ""): string[] {
  return [
    slug,
    title,
    category,
    price,
    "4",
    "no",
    "no",
    "Made for the route tests.",
    "/images/products/route.svg",
    '{"Material":"Oak"}',
    version,
  ];
}

describe("GET /admin/products/export.csv", () => {
  it("without the admin flag: a redirect to /, no CSV", async () => {
    const answer = await call(exportLoader, getRequest("/admin/products/export.csv"));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/");
  });

  it("with the flag: the filtered list as a CSV download", async () => {
    const office = await db.selectFrom("categories").select("id").where("slug", "=", "office").executeTakeFirstOrThrow();
    const answer = await call(exportLoader, getRequest(`/admin/products/export.csv?category=${office.id}&q=`, { Cookie: adminCookie }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("Content-Disposition")).toMatch(/^attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    const bytes = new Uint8Array(await (answer.raw as Response).clone().arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = (answer.body as string).trim().split("\r\n");
    expect(lines[0]).toBe(CSV_COLUMNS.join(","));
    const inOffice = await db
      .selectFrom("productVariants")
      .innerJoin("items", "items.id", "productVariants.itemId")
      .select("productVariants.id")
      .where("items.categoryId", "=", office.id)
      .execute();
    expect(lines).toHaveLength(inOffice.length + 1);
  });

  it("other methods: 403 from another site, 405 otherwise", async () => {
    const post = (origin: string) =>
      new Request(`${ORIGIN}/admin/products/export.csv`, {
        method: "POST",
        headers: { Host: "localhost:3000", Origin: origin, Cookie: adminCookie },
      });
    expect((await call(exportAction, post("https://evil.example"))).status).toBe(403);
    const same = await call(exportAction, post(ORIGIN));
    expect(same.status).toBe(405);
    expect(same.headers.get("Allow")).toBe("GET");
  });
});

describe("/admin/products/import", () => {
  it("the page: admin only", async () => {
    const away = await call(importLoader, getRequest("/admin/products/import"));
    expect(away.status).toBe(302);
    expect(away.headers.get("Location")).toBe("/");
    expect((await call(importLoader, getRequest("/admin/products/import", { Cookie: adminCookie }))).body).toEqual({});
  });

  it("a POST without the admin flag: 403 and nothing changed", async () => {
    const before = await snapshot();
    const answer = await call(importAction, await uploadRequest({ file: csvFileOf([row("Sneaky Import", "1")]) }));
    expect(answer.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it("a POST from another site: 403 and nothing changed, even with the flag", async () => {
    const before = await snapshot();
    const answer = await call(
      importAction,
      await uploadRequest({ file: csvFileOf([row("Cross Site Import", "1")]) }, { Origin: "https://evil.example", Cookie: adminCookie }),
    );
    expect(answer.status).toBe(403);
    expect(String(asRecord(answer.body).formError)).toMatch(/cross-site/i);
    expect(await snapshot()).toEqual(before);
  });

  it("a good file: the rows are written and the list shows a toast", async () => {
    const sofa = await db.selectFrom("items").select("version").where("slug", "=", "sheesham-wood-3-seater-sofa").executeTakeFirstOrThrow();
    const rows = [
      row("Route Import Desk", "9999"),
      row("Sofa From Route", "1", "sheesham-wood-3-seater-sofa", "living-room", String(sofa.version)),
    ];
    const answer = await call(importAction, await uploadRequest({ file: csvFileOf(rows) }, { Cookie: adminCookie }));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/admin/products");
    const { toasts } = await readToasts(getRequest("/admin/products", { Cookie: mergeCookies(setCookies(answer)) }));
    expect(toasts).toMatchObject([{ type: "success", title: "Imported 2 products (1 new, 1 updated)" }]);
    expect(await db.selectFrom("items").select(["price", "stock"]).where("slug", "=", "route-import-desk").executeTakeFirst()).toEqual({
      price: 9999,
      stock: 4,
    });
    expect(
      await db.selectFrom("items").select(["title", "price"]).where("slug", "=", "sheesham-wood-3-seater-sofa").executeTakeFirst(),
    ).toEqual({ title: "Sofa From Route", price: 1 });
  });

  it("made_to_order: exported, set and cleared by an import, kept by an old file without the column; a bad value is refused", async () => {
    const slug = "hand-carved-rosewood-king-bed"; // the demo's made-to-order piece
    const flag = async () =>
      (await db.selectFrom("items").select("madeToOrder").where("slug", "=", slug).executeTakeFirstOrThrow()).madeToOrder;
    const exported = async () => {
      const answer = await call(exportLoader, getRequest("/admin/products/export.csv?q=Rosewood", { Cookie: adminCookie }));
      const records = parse(answer.body as string, { bom: true, columns: true }) as Record<string, string>[];
      return records.find((r) => r.slug === slug)!;
    };
    const upload = async (header: readonly string[], cells: string[]) =>
      call(importAction, await uploadRequest({ file: new File([stringify([[...header], cells])], "p.csv") }, { Cookie: adminCookie }));
    const resend = async (changes: Record<string, string>, header: readonly string[] = CSV_COLUMNS) => {
      const record = { ...(await exported()), ...changes };
      return upload(
        header,
        header.map((c) => record[c] ?? ""),
      );
    };

    expect(await flag()).toBe(1);
    expect((await exported()).made_to_order).toBe("yes");
    expect((await resend({ made_to_order: "no" })).status).toBe(302);
    expect(await flag()).toBe(0);
    expect((await exported()).made_to_order).toBe("no");
    expect((await resend({ made_to_order: "1", price: "100001" })).status).toBe(302);
    expect(await flag()).toBe(1);
    // A file from before the column (or a spreadsheet that dropped it) changes the price and keeps the flag.
    const old = CSV_COLUMNS.filter((c) => c !== "made_to_order");
    expect((await resend({ price: "100002" }, old)).status).toBe(302);
    expect(await db.selectFrom("items").select(["price", "madeToOrder"]).where("slug", "=", slug).executeTakeFirstOrThrow()).toEqual({
      price: 100002,
      madeToOrder: 1,
    });

    const before = await snapshot();
    const bad = await resend({ made_to_order: "perhaps", price: "5" });
    expect(bad.status).toBe(400);
    expect(asRecord(bad.body).problems).toEqual([{ line: 2, message: 'Made to order must be "yes" or "no"' }]);
    expect(await snapshot()).toEqual(before);
  });

  it("a file with a bad row: 400 with the report, nothing changed", async () => {
    const before = await snapshot();
    const answer = await call(
      importAction,
      await uploadRequest({ file: csvFileOf([row("Good Row", "10"), row("Bad Row", "ten")]) }, { Cookie: adminCookie }),
    );
    expect(answer.status).toBe(400);
    const body = asRecord(answer.body);
    expect(body.formError).toBe(NOTHING_IMPORTED);
    expect(body.problems).toEqual([{ line: 3, message: "Price must be a number" }]);
    expect(await snapshot()).toEqual(before);
  });

  it("no file, an empty file or a file that is not text: 400 with a message on the field", async () => {
    const before = await snapshot();
    const cases: [Record<string, File | string>, RegExp][] = [
      [{}, /Choose a CSV file/],
      [{ file: new File([], "", { type: "application/octet-stream" }) }, /Choose a CSV file/],
      [{ file: new File([new Uint8Array([0xff, 0xfe, 0x00, 0x41])], "products.csv") }, /not UTF-8 text/],
      [{ file: new File(["PK\u0003\u0004"], "products.xlsx") }, /spreadsheet file, not CSV/],
    ];
    for (const [fields, message] of cases) {
      const answer = await call(importAction, await uploadRequest(fields, { Cookie: adminCookie }));
      expect(answer.status).toBe(400);
      expect(String(asRecord(asRecord(answer.body).fieldErrors).file)).toMatch(message);
    }
    const headerOnly = await call(importAction, await uploadRequest({ file: csvFileOf([]) }, { Cookie: adminCookie }));
    expect(headerOnly.status).toBe(400);
    expect(asRecord(headerOnly.body).formError).toBe("The file has no product rows");
    expect(await snapshot()).toEqual(before);
  });
});
