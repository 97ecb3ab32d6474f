// The list contract (docs/decisions/0013): every route and request helper reads `?page=` and
// `?pageSize=` through parseListQuery (app/lib/paging.server.ts), and every page that lists answers a
// page past the last, or a page number that is not one, with the same 404.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { grantAdmin } from "~/web/sign-in.server";
import { directCustomer } from "../support/orders";
import { getRequest, mergeCookies } from "../support/requests";
import { call } from "../support/route-calls";

const ROOT = path.resolve(__dirname, "../..");
const THE_MODULE = "app/lib/paging.server.ts";

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourcesUnder(rel);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

const PAGE_PARAM = String.raw`["'\x60](?:page|pageSize)["'\x60]`;
/** Ways of reading paging by hand; a form's own hidden `page` field (an action's) is not the URL. */
const HAND_PARSES: [RegExp, string][] = [
  [new RegExp(String.raw`(?<!\bform)\.(?:get|getAll|has)\(\s*${PAGE_PARAM}\s*\)`), "reads ?page= or ?pageSize= itself"],
  [/\bNumber\([^)]*\bpage\b/i, "turns a page into a number itself"],
  [/\(\s*page\s*-\s*1\s*\)\s*\*/, "computes a window's offset itself"],
  [/\bstorefrontPage\b|\bpageParams\b|\bpageInfo\(/, "uses a paging helper that is gone"],
  [/:\s*PageInfo\s*=\s*\{/, "builds a PageInfo itself (pageInfoOf is the only builder)"],
];

/**
 * The one known exception: the product page's review section has its own parameter
 * (`reviews-page`), and a bad or past-the-end value shows the first or an empty section rather than
 * failing the product page (docs/decisions/0018).
 */
const EXCEPTIONS = new Set(["app/models/reviews/read.server.ts"]);

describe("the list contract, read from the source", () => {
  const files = [...sourcesUnder("app/routes"), ...sourcesUnder("app/web"), ...sourcesUnder("app/models")].filter(
    (file) => file !== THE_MODULE && !EXCEPTIONS.has(file),
  );

  it("finds the route modules (the walk itself works)", () => {
    expect(files.filter((f) => f.startsWith("app/routes/")).length).toBeGreaterThan(50);
    expect(files).toContain("app/routes/category.$slug.tsx");
  });

  it("no route, request helper or model parses paging by hand", () => {
    const found: string[] = [];
    for (const file of files) {
      readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*)/.test(line)) return;
          for (const [pattern, what] of HAND_PARSES) if (pattern.test(line)) found.push(`${file}:${i + 1} ${what}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("every page that shows a pager reads its page through parseListQuery (or adminListLoader)", () => {
    const pagers = files.filter((f) => f.startsWith("app/routes/") && /<Pagination\b/.test(readFileSync(path.join(ROOT, f), "utf8")));
    expect(pagers.length).toBeGreaterThanOrEqual(10);
    const readers = pagers.filter((f) => {
      const source = readFileSync(path.join(ROOT, f), "utf8");
      return /\bparseListQuery\(/.test(source) || /\badminListLoader\(/.test(source);
    });
    expect(readers).toEqual(pagers);
  });

  it("the test catches a hand parse (the patterns are live)", () => {
    const samples = [
      'const page = Number(url.searchParams.get("page") ?? 1);',
      "const page = storefrontPage(searchParams.getAll('page'));",
      'page: p.get("page") ?? undefined,',
      "const offset = (page - 1) * 24;",
      "const info: PageInfo = { page: 1 };",
    ];
    for (const sample of samples)
      expect(
        HAND_PARSES.some(([pattern]) => pattern.test(sample)),
        sample,
      ).toBe(true);
    expect(HAND_PARSES.some(([pattern]) => pattern.test('const page = IdSchema.safeParse(form.get("page"));'))).toBe(false);
  });
});

describe("one rule past the end: every page that lists answers 404", () => {
  let adminCookie = "";
  let customer: { Authorization: string };
  beforeAll(async () => {
    await ready;
    adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
    customer = (await directCustomer("list-contract")).auth;
  });

  const statusOf = async (module: Promise<{ loader: unknown }>, url: string, headers: Record<string, string> = {}, params = {}) =>
    (await call((await module).loader as never, getRequest(url, headers), params)).status;

  const PAGES: {
    name: string;
    module: () => Promise<{ loader: unknown }>;
    url: string;
    who: "guest" | "customer" | "admin";
    params?: object;
  }[] = [
    {
      name: "category",
      module: () => import("~/routes/category.$slug"),
      url: "/category/living-room",
      who: "guest",
      params: { slug: "living-room" },
    },
    { name: "search", module: () => import("~/routes/search"), url: "/search?q=teak", who: "guest" },
    { name: "wishlist", module: () => import("~/routes/wishlist"), url: "/wishlist", who: "guest" },
    { name: "orders", module: () => import("~/routes/orders"), url: "/orders", who: "customer" },
    ...["categories", "products", "users", "coupons", "orders", "reviews", "refunds", "returns"].map((list) => ({
      name: `admin ${list}`,
      module: () => import(`~/routes/admin.${list}.tsx`),
      url: `/admin/${list}`,
      who: "admin" as const,
    })),
  ];

  for (const page of PAGES) {
    it(`${page.name}: page 1 is a page; past the last, or not a page number, is a 404`, async () => {
      const headers: Record<string, string> = page.who === "admin" ? { Cookie: adminCookie } : page.who === "customer" ? customer : {};
      const at = (search: string) => `${page.url}${page.url.includes("?") ? "&" : "?"}${search}`;
      const first = await statusOf(page.module(), page.url, headers, page.params);
      expect(first, "page 1").toBe(200);
      for (const search of ["page=999999", "page=0", "page=abc", "page=1&page=2"])
        expect(await statusOf(page.module(), at(search), headers, page.params), search).toBe(404);
    });
  }
});
