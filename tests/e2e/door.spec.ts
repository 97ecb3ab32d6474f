// The production server's door, as a browser or a script meets it: a cross-site post to a page or
// the API is a 403 from the server itself, never a 500 from Remix's own origin check.
import { expect, test } from "@playwright/test";

// No page is opened: one project (JavaScript off) is enough.
test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "no browser involved: once is enough");

test("cross-site posts to pages and the API answer 403, and the shop still takes its own", async ({ request, baseURL }) => {
  for (const path of ["/cart", "/login", "/signup", "/contact", "/admin/login", "/cart.data", "/login.data"]) {
    const answer = await request.post(path, {
      form: { intent: "add", itemId: "1", email: "a@example.com", password: "x" },
      headers: { Origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(answer.status(), path).toBe(403);
    expect(await answer.text(), path).toBe("Cross-site request refused");
  }
  const api = await request.post("/api/cart/add", { data: { itemId: 1 }, headers: { Origin: "null" } });
  expect(api.status()).toBe(403);
  expect(await api.json()).toEqual({ message: "Cross-site request refused" });

  const own = await request.post("/cart", {
    form: { intent: "add", itemId: "1", redirectTo: "/cart" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(own.status()).toBe(302);
});

test("a page post with an Origin that is not a URL, or a NUL in the URL, is refused cleanly", async ({ request }) => {
  expect((await request.post("/login", { form: { email: "a@example.com" }, headers: { Origin: "garbage" } })).status()).toBe(403);
  expect((await request.get("/category/living-room?sort=%00")).status()).toBe(400);
});

test("a page asked for with the visitor's cookies is never kept by a shared cache", async ({ request, baseURL }) => {
  const added = await request.post("/cart", {
    form: { intent: "add", itemId: "1", redirectTo: "/cart" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(added.status()).toBe(302);
  const cart = await request.get("/cart");
  expect(cart.headers()["cache-control"]).toBe("private, no-store");
});
