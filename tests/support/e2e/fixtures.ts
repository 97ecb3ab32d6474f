// Every browser test fails on a console error or an uncaught page error. With JavaScript on,
// page.goto and page.reload wait until React has hydrated (the root marks <html data-hydrated>),
// so a click never lands on the server-rendered page before its handlers exist.
//
// Customers: `customer` is the worker's own customer (registered once per worker through the
// API, signed in once; its signed-in storage state is put into each test's browser context),
// with an empty cart at the start of every test. Tests of one worker run one after another, so
// they never share it at the same time; what they may change is reset here (the cart) or
// never changed by a test using it: it places no orders and keeps its profile, password and
// email. A test that changes any of those, or needs a customer with no history, makes its own
// (signedInCustomer / createCustomer in ./customers.ts).
import { test as base, expect as baseExpect } from "@playwright/test";
import type { BrowserContext, Page } from "@playwright/test";
import { BASE_URL } from "../../../playwright.config";
import type { Account } from "./customers";
import { dropDeletedUploadErrors } from "./helpers";
import { logInThroughForm, newAccount, postHeaders, registerThroughApi } from "./customers";

async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated='true']").waitFor({ state: "attached" });
}

const LEFT_PAGE_ERRORS = "e2e:errors-of-left-pages";

/** Runs in every page before its own scripts (page.addInitScript). */
function keepErrorsOfLeftPages() {
  const key = "e2e:errors-of-left-pages";
  let leaving = false;
  const keep = (text: string) => {
    if (!leaving) return;
    const kept = JSON.parse(sessionStorage.getItem(key) ?? "[]") as string[];
    kept.push(`${text} (logged while ${location.pathname} was being left)`);
    sessionStorage.setItem(key, JSON.stringify(kept));
  };
  window.addEventListener("pagehide", () => (leaving = true));
  window.addEventListener("pageshow", () => (leaving = false));
  window.addEventListener("error", (event) => keep(String(event.error ?? event.message)));
  window.addEventListener("unhandledrejection", (event) => keep(String(event.reason)));
  // Leaving a page ends its requests (the Fetch standard terminates a document's fetches when it
  // unloads), and Remix 2.17 logs two of those as errors: route discovery's "Failed to fetch
  // manifest patches", and single fetch's "network error" for a .data answer cut mid-body. Nobody
  // sees them (the page is already gone; no upstream release stops them yet), so while a page is
  // being left exactly these two are logged as information. Anything else logged then still fails
  // the test, and so do these two while the page is shown.
  const cutByLeaving = [/^Failed to fetch manifest patches\b/, /^TypeError: network error$/];
  // The router also cuts short a data request it no longer needs (a newer navigation, or a newer
  // revalidation, superseded it), and Remix 2.17 logs the AbortError that ends the reading of its
  // body (single fetch's decoding: `console.error(e)`), though the router then goes on with the
  // newer one. Seen behind the cluster's proxy, where a body arrives later. The shop's own code
  // logs no AbortError (its fetches catch them), so exactly that error object, logged alone, is
  // logged as information, the page shown or not.
  const cutByRouter = (args: unknown[]) => args.length === 1 && args[0] instanceof DOMException && args[0].name === "AbortError";
  const consoleError = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const text = args.map(String).join(" ");
    if (cutByRouter(args)) return console.info("[data request cut short by the router]", ...args);
    if (leaving && cutByLeaving.some((known) => known.test(text))) return console.info("[request cut by leaving the page]", ...args);
    keep(text);
    consoleError(...args);
  };
}

async function errorsOfLeftPages(page: Page): Promise<string[]> {
  if (page.isClosed() || !page.url().startsWith(BASE_URL)) return [];
  const read = () => page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? "[]") as string[], LEFT_PAGE_ERRORS);
  // A test may end while a page is still on its way in: read the tab's record once it is there.
  return read().catch(async () => {
    await page.waitForLoadState("domcontentloaded");
    return read();
  });
}

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

let clients = 0;

export const test = base.extend<
  { consoleErrors: string[]; customer: Account },
  { workerCustomer: { account: Account; state: StorageState } }
>({
  page: async ({ page, javaScriptEnabled }, use, testInfo) => {
    // Each test is its own customer on its own address (the server trusts one proxy hop in
    // tests), so the per-address rate limits count one test's requests, as for a real shopper.
    clients += 1;
    await page.setExtraHTTPHeaders({
      "X-Forwarded-For": `10.${testInfo.workerIndex % 250}.${Math.floor(clients / 250) % 250}.${clients % 250}`,
    });
    if (javaScriptEnabled) {
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (...args: Parameters<Page["goto"]>) => {
        const response = await goto(...args);
        await waitForHydration(page);
        return response;
      };
      page.reload = async (...args: Parameters<Page["reload"]>) => {
        const response = await reload(...args);
        await waitForHydration(page);
        return response;
      };
    }
    await use(page);
  },
  consoleErrors: [
    async ({ page, javaScriptEnabled }, use, testInfo) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        // A failed resource's message does not name it: its URL is added, so a failure says which.
        if (msg.type() === "error") errors.push(msg.location().url ? `${msg.text()} [${msg.location().url}]` : msg.text());
      });
      page.on("pageerror", (err) => errors.push(err.message));
      // What a page logs while it is being left (from its 'pagehide' on) often never reaches
      // Playwright: the page's context is gone before the message is read. Each page keeps
      // those in the tab's sessionStorage, which the next page of the site inherits.
      if (javaScriptEnabled) await page.addInitScript(keepErrorsOfLeftPages);
      await use(errors);
      if (javaScriptEnabled) errors.push(...(await errorsOfLeftPages(page)));
      await dropDeletedUploadErrors(errors, testInfo);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
  workerCustomer: [
    async ({ playwright }, use, workerInfo) => {
      const account = newAccount(workerInfo, { tag: `worker${workerInfo.workerIndex}`, name: "Rohan Mehta" });
      const api = await playwright.request.newContext({ baseURL: BASE_URL });
      await registerThroughApi(api, account, workerInfo);
      await logInThroughForm(api, account, workerInfo);
      const state = await api.storageState();
      await api.dispose();
      await use({ account, state });
    },
    { scope: "worker" },
  ],
  customer: async ({ page, workerCustomer }, use, testInfo) => {
    await page.context().addCookies(workerCustomer.state.cookies);
    // Whatever an earlier test of this worker left in the cart goes.
    const cleared = await page.request.delete("/api/cart/clear", { headers: postHeaders(testInfo) });
    expect(cleared.status(), "the worker customer's cart emptied").toBe(200);
    await use(workerCustomer.account);
  },
});

/**
 * With JavaScript, the address bar changes as a navigation completes and React draws the new page
 * a moment later (a transition): a page read right after `toHaveURL` could still be the old one.
 * So `expect(page).toHaveURL(…)` also waits until the page shows the location the address names
 * (the root marks <html data-location> with the key history.state holds).
 */
type ExpectedURL = Parameters<ReturnType<typeof baseExpect<Page>>["toHaveURL"]>[0];
const expect = baseExpect.extend({
  async toHaveURL(page: Page, url: ExpectedURL, options?: { timeout?: number; ignoreCase?: boolean }) {
    const assertion = this.isNot ? baseExpect(page).not : baseExpect(page);
    try {
      await assertion.toHaveURL(url, options);
    } catch (error) {
      return { pass: this.isNot, name: "toHaveURL", message: () => (error as Error).message };
    }
    if (!this.isNot && (await page.locator("html[data-hydrated]").count()) > 0) {
      await page.waitForFunction(
        () => document.documentElement.dataset.location === ((history.state as { key?: string } | null)?.key ?? "default"),
        undefined,
        { timeout: options?.timeout ?? this.timeout },
      );
    }
    return { pass: !this.isNot, name: "toHaveURL", message: () => "" };
  },
});

export { expect };

export const jsEnabled = (projectName: string) => projectName === "js" || projectName.startsWith("js-");
