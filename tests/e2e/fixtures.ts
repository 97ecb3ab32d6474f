// Every browser test fails on a console error or an uncaught page error. With JavaScript on,
// page.goto and page.reload wait until React has hydrated (the root marks <html data-hydrated>),
// so a click never lands on the server-rendered page before its handlers exist.
import { test as base, expect } from "@playwright/test";
import type { Page } from "@playwright/test";

async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated='true']").waitFor({ state: "attached" });
}

let clients = 0;

export const test = base.extend<{ consoleErrors: string[] }>({
  page: async ({ page, javaScriptEnabled }, use, testInfo) => {
    // Each test is its own customer on its own address (the server trusts one proxy hop in
    // tests), so the per-address rate limits count one test's requests, as for a real shopper.
    clients += 1;
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": `10.${testInfo.workerIndex % 250}.${Math.floor(clients / 250) % 250}.${clients % 250}` });
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
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error") errors.push(msg.text());
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export const jsEnabled = (projectName: string) => projectName === "js" || projectName.startsWith("js-");
