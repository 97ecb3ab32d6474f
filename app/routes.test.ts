// The layout of app/routes (docs/decisions/0022-route-layout.md): flat route files in Remix v2's
// naming, each name starting with a first segment of one documented group; a `.tsx` is a page
// (it has a default export), a `.ts` a route without one. A file outside the scheme fails here:
// add its first segment to its group below (a new group needs the ADR too), or rename it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROUTES_DIR = path.join(__dirname, "routes");

/** The groups of app/routes and the first segments of their files' names (the URL's first part). */
const ROUTE_GROUPS: Record<string, readonly string[]> = {
  "staff: the admin area, /admin/…": ["admin"],
  "the JSON API, /api/…": ["api"],
  "the payment gateway's calls and the offline test gateway": ["rzp", "test-gateway"],
  "storefront pages": [
    "_index",
    "about",
    "categories",
    "category",
    "product",
    "search",
    "cart",
    "wishlist",
    "checkout",
    "pay",
    "order-confirmation",
    "contact",
    "privacy-policy",
    "shipping-policy",
    "t&c",
  ],
  "account pages": ["signup", "verify-otp", "login", "logout", "forgot-password", "reset-password", "profile", "orders"],
  "files, probes and the not-found page": ["$", "images", "uploads", "robots[.]txt", "sitemap[.]xml", "sitemaps", "healthz", "readyz"],
};

const GROUP_OF = new Map(Object.entries(ROUTE_GROUPS).flatMap(([group, firsts]) => firsts.map((first) => [first, group] as const)));

/** One entry of app/routes as the check sees it. */
interface RouteEntry {
  name: string;
  isDirectory: boolean;
  /** the file's text (for the default export) */
  text: string;
}

/**
 * The first URL segment a flat route file names: up to the first dot outside `[…]` (Remix's
 * escape), without the trailing `_` that leaves the parent's layout (`admin_.login`).
 */
function firstSegment(name: string): string {
  const base = name.replace(/\.tsx?$/, "");
  let depth = 0;
  for (let i = 0; i < base.length; i++) {
    if (base[i] === "[") depth++;
    else if (base[i] === "]") depth--;
    else if (base[i] === "." && depth === 0) return base.slice(0, i).replace(/(.)_$/, "$1");
  }
  return base.replace(/(.)_$/, "$1");
}

/** What is wrong with these entries of app/routes, one line each (none: the folder keeps the scheme). */
function layoutProblems(entries: readonly RouteEntry[]): string[] {
  const problems: string[] = [];
  for (const { name, isDirectory, text } of entries) {
    if (isDirectory) {
      problems.push(`${name}/: a folder; routes are flat files, a route's own pieces go to components/ or web/`);
      continue;
    }
    if (!/\.tsx?$/.test(name) || /\.(server|test|client)\./.test(name) || name.startsWith(".")) {
      problems.push(`${name}: not a route module; only route modules live in app/routes`);
      continue;
    }
    if (!GROUP_OF.has(firstSegment(name))) {
      problems.push(`${name}: '${firstSegment(name)}' is in no group of ROUTE_GROUPS (app/routes.test.ts, ADR 0022)`);
    }
    const page = /^export default /m.test(text);
    if (name.endsWith(".tsx") && !page) problems.push(`${name}: a .tsx without a default export; a route without a page is a .ts`);
    if (name.endsWith(".ts") && page) problems.push(`${name}: a .ts with a default export; a page is a .tsx`);
  }
  return problems;
}

function entriesOnDisk(): RouteEntry[] {
  return fs.readdirSync(ROUTES_DIR, { withFileTypes: true }).map((entry) => ({
    name: entry.name,
    isDirectory: entry.isDirectory(),
    text: entry.isDirectory() ? "" : fs.readFileSync(path.join(ROUTES_DIR, entry.name), "utf8"),
  }));
}

describe("app/routes keeps its layout", () => {
  it("every file is a route module whose name starts with a documented first segment", () => {
    expect(layoutProblems(entriesOnDisk())).toEqual([]);
  });

  it("every first segment in the groups names at least one file (no stale entries)", () => {
    const used = new Set(entriesOnDisk().map((entry) => firstSegment(entry.name)));
    expect([...GROUP_OF.keys()].filter((first) => !used.has(first))).toEqual([]);
  });

  it("reads first segments as Remix's flat routes name them", () => {
    expect(firstSegment("admin.orders_.$orderId.tsx")).toBe("admin");
    expect(firstSegment("admin_.login.tsx")).toBe("admin");
    expect(firstSegment("_index.tsx")).toBe("_index");
    expect(firstSegment("robots[.]txt.ts")).toBe("robots[.]txt");
    expect(firstSegment("$.tsx")).toBe("$");
    expect(firstSegment("profile.email.confirm.tsx")).toBe("profile");
  });

  it("refuses what is outside the scheme", () => {
    const file = (name: string, text = "export default function Page() {}\n") => ({ name, isDirectory: false, text });
    expect(layoutProblems([file("admin.orders.tsx"), file("api.cart.get.ts", "export const loader = 1;\n")])).toEqual([]);
    const problems = layoutProblems([
      file("gift-cards.tsx"),
      { name: "admin.orders", isDirectory: true, text: "" },
      file("helpers.server.ts", ""),
      file("notes.md", ""),
      file("api.cart.get.ts"),
      file("cart.tsx", "export const loader = 1;\n"),
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^gift-cards\.tsx: 'gift-cards' is in no group/),
      expect.stringMatching(/^admin\.orders\/: a folder/),
      expect.stringMatching(/^helpers\.server\.ts: not a route module/),
      expect.stringMatching(/^notes\.md: not a route module/),
      expect.stringMatching(/^api\.cart\.get\.ts: a \.ts with a default export/),
      expect.stringMatching(/^cart\.tsx: a \.tsx without a default export/),
    ]);
  });
});
