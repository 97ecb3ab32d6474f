// One page-action contract (lib/form.server.ts, ADR 0009): every route module whose forms say what
// they ask for in an `intent` field answers an intent it does not know the same way, 400
// "Unknown action" (code UNKNOWN_INTENT) through the re-rendered form. The
// modules are found on disk and read as text, so a new page with intents cannot be left out,
// and one that answers an unknown intent its own way (a thrown Response, its own message, a
// default action) fails here.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { UNKNOWN_ACTION } from "~/lib/form.server";
import { commitSession, getSession } from "~/lib/session.server";
import { grantAdmin } from "~/web/sign-in.server";
import { formRequest, getRequest, mergeCookies } from "../support/requests";
import type { RouteFn } from "../support/route-calls";
import { asRecord, call } from "../support/route-calls";
import { newCustomer } from "../support/orders";

const ROUTES_DIR = path.resolve(__dirname, "../../app/routes");

/** A module's source says it takes an intent: it reads the field, names it in a form, or is an admin list. */
const TAKES_INTENT = /name="intent"|\.get\("intent"\)|\bintents\s*:|\badminCrudAction\(/;

/** Params for a module's path segments: plausible values (the intent is refused before they are looked up). */
const PARAMS: Record<string, string> = { orderId: "1", slug: "no-such-piece", paymentOrderId: "order_NoSuchPayment1", id: "1" };

interface IntentRoute {
  file: string;
  action: RouteFn;
}

/** Every route file (and flat-route folder's route file) that exports an action and takes an intent. */
async function intentRoutes(): Promise<IntentRoute[]> {
  const found: IntentRoute[] = [];
  for (const entry of fs.readdirSync(ROUTES_DIR, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    let file = entry.name;
    if (entry.isDirectory()) {
      const inner = ["route.tsx", "route.ts"].find((f) => fs.existsSync(path.join(ROUTES_DIR, entry.name, f)));
      if (!inner) continue;
      file = path.join(entry.name, inner);
    } else if (!/\.(ts|tsx)$/.test(file) || /\.(test|server)\./.test(file)) {
      continue;
    }
    if (!TAKES_INTENT.test(fs.readFileSync(path.join(ROUTES_DIR, file), "utf8"))) continue;
    const mod = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, file))) as Record<string, unknown>;
    if (typeof mod.action === "function") found.push({ file, action: mod.action as RouteFn });
  }
  return found;
}

let routes: IntentRoute[] = [];
/** A browser signed in as a customer that also holds the admin flag: every page's guard lets it through. */
let cookie = "";

beforeAll(async () => {
  await ready;
  routes = await intentRoutes();
  const customer = await newCustomer("page-actions");
  const admin = mergeCookies([await grantAdmin(getRequest("/"))]);
  const session = await getSession(getRequest("/", { Cookie: admin }));
  session.set("userId", customer.user.id);
  cookie = mergeCookies([await commitSession(session, getRequest("/"))]);
});

describe("an unknown intent is one answer on every page", () => {
  it("finds the pages with intents on disk", () => {
    const names = routes.map((r) => r.file);
    for (const expected of [
      "_index.tsx",
      "admin.categories.tsx",
      "admin.coupons.tsx",
      "admin.delivery.tsx",
      "admin.mail.tsx",
      "admin.orders_.$orderId.tsx",
      "admin.products.tsx",
      "admin.refunds.tsx",
      "admin.reviews.tsx",
      "admin.users.tsx",
      "cart.tsx",
      "checkout.tsx",
      "order-confirmation.$orderId.tsx",
      "orders.tsx",
      "pay.$paymentOrderId.tsx",
      "product_.$slug.review.tsx",
      "verify-otp.tsx",
      "wishlist.tsx",
    ]) {
      expect(names).toContain(expected);
    }
  });

  for (const intent of ["no-such-intent", "constructor", "__proto__"]) {
    it(`intent=${intent} → 400 "${UNKNOWN_ACTION}", the form re-rendered, from every page`, async () => {
      const answers: { file: string; status: number; formError: unknown }[] = [];
      for (const { file, action } of routes) {
        const answer = await call(action, formRequest(`/${file}`, { intent }, { Cookie: cookie }), PARAMS);
        const body = typeof answer.body === "object" && answer.body !== null ? asRecord(answer.body) : {};
        answers.push({ file, status: answer.status, formError: body.formError });
      }
      expect(answers).toEqual(routes.map(({ file }) => ({ file, status: 400, formError: UNKNOWN_ACTION })));
    });
  }

  it("a post without an intent is refused the same way, except where docs/api.md documents the default", async () => {
    // POST /checkout without an intent places the order (docs/api.md, Page forms).
    const defaulted = new Set(["checkout.tsx"]);
    for (const { file, action } of routes.filter((r) => !defaulted.has(r.file))) {
      const answer = await call(action, formRequest(`/${file}`, {}, { Cookie: cookie }), PARAMS);
      expect({ file, status: answer.status, formError: asRecord(answer.body).formError }).toEqual({
        file,
        status: 400,
        formError: UNKNOWN_ACTION,
      });
    }
  });
});
