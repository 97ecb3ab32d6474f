// How a rendered page is written (app/lib/page-render.server.ts, ADR 0016): in one piece, the
// document then its loader data, the data's scripts under the page's own CSP nonce; and the
// browser's Remix hydrates from that data (it does not fetch the page's data again).
import { expect, test } from "../support/e2e/fixtures";

const PRODUCT = "/product/sheesham-wood-3-seater-sofa";

test("a rendered page: the doctype, the document, then its data for the browser under the page's nonce", async ({
  playwright,
  baseURL,
}) => {
  const client = await playwright.request.newContext({ baseURL });
  try {
    // A cookie: no page cache answers, the page is rendered for this request.
    const answer = await client.get(PRODUCT, { headers: { Cookie: "seen=1" } });
    expect(answer.status()).toBe(200);
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(answer.headers()["content-security-policy"]!)![1];
    const html = await answer.text();
    expect(html.startsWith("<!DOCTYPE html><html")).toBe(true);
    // No streamed boundary: nothing was left for a later chunk to fill in.
    expect(html).not.toContain('<template id="B:');
    expect(html).not.toContain("<!--$!-->");
    const feed = "window\\.__remixContext\\.streamController";
    const script = (body: string) => `<script nonce="([^"]+)">${feed}\\.${body};</script>`;
    const tail = new RegExp(`</html>${script('enqueue\\((".*")\\)')}${script("close\\(\\)")}$`, "s").exec(html);
    expect(tail).not.toBeNull();
    expect([tail![1], tail![3]]).toEqual([nonce, nonce]);
    const data = JSON.parse(tail![2]) as string;
    expect(data).toContain("Sheesham Wood 3-Seater Sofa");
    expect(tail![2]).not.toMatch(/[<>]/);
  } finally {
    await client.dispose();
  }
});

test("the browser's Remix hydrates from the page's own data, with no request for it", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "hydration needs JavaScript");
  const dataRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith(".data")) dataRequests.push(request.url());
  });
  await page.goto(PRODUCT);
  const title = await page.evaluate(() => {
    const router = (window as unknown as { __remixRouter: { state: { loaderData: Record<string, { item?: { title: string } }> } } })
      .__remixRouter;
    return router.state.loaderData["routes/product.$slug"]?.item?.title;
  });
  expect(title).toBe("Sheesham Wood 3-Seater Sofa");
  expect(dataRequests).toEqual([]);
});
