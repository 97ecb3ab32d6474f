// The shared storefront layout (header, mobile menu, footer), the static pages and the
// security headers of a document response.
import { expect, jsEnabled, test } from "../support/e2e/fixtures";

const NAV = [
  { name: "Home", href: "/" },
  { name: "Categories", href: "/categories" },
  { name: "About Us", href: "/about" },
  { name: "Contact Us", href: "/contact" },
];

const POLICIES = [
  { name: "Privacy Policy", href: "/privacy-policy", title: "Privacy Policy" },
  { name: "Terms & Conditions", href: "/t&c", title: "Terms and Conditions" },
  { name: "Shipping Policy", href: "/shipping-policy", title: "Shipping Policy" },
];

test("header navigation", async ({ page }, testInfo) => {
  await page.goto("/about");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Sagwan Living home" })).toHaveAttribute("href", "/");
  await expect(header.getByRole("link", { name: "Cart, 0 items" })).toHaveAttribute("href", "/cart");
  if (jsEnabled(testInfo.project.name)) {
    // desktop: the main navigation is on the bar, the phone menu is not
    const nav = header.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(NAV.map((l) => l.name));
    for (const l of NAV) await expect(nav.getByRole("link", { name: l.name, exact: true })).toHaveAttribute("href", l.href);
    await expect(nav.getByRole("link", { name: "About Us" })).toHaveAttribute("aria-current", "page");
    await expect(header.getByRole("link", { name: "Login", exact: true })).toHaveAttribute("href", "/login");
    await expect(header.getByLabel("Menu")).toBeHidden();
    await nav.getByRole("link", { name: "Contact Us" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole("heading", { level: 1, name: "Contact Us" })).toBeVisible();
  } else {
    // phone without JavaScript: the bar shows only logo, cart and the Menu disclosure
    await expect(header.getByRole("navigation", { name: "Main" })).toBeHidden();
    const mobile = header.getByRole("navigation", { name: "Mobile" });
    await expect(mobile).toBeHidden();
    await header.getByLabel("Menu").click();
    await expect(mobile).toBeVisible();
    await expect(mobile.getByRole("link", { name: "Login / Register" })).toBeVisible();
    await expect(mobile.getByRole("link", { name: "Login / Register" })).toHaveAttribute("href", "/login");
    for (const l of NAV) {
      const link = mobile.getByRole("link", { name: l.name, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute("href", l.href);
    }
    await mobile.getByRole("link", { name: "Contact Us", exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole("heading", { level: 1, name: "Contact Us" })).toBeVisible();
    await expect(header.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  }
});

test.describe("phone with JavaScript", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the mobile menu closes on route change", async ({ page }, testInfo) => {
    test.skip(!jsEnabled(testInfo.project.name), "the no-js project covers the menu without JavaScript");
    await page.goto("/");
    const header = page.getByRole("banner");
    const mobile = header.getByRole("navigation", { name: "Mobile" });
    await header.getByLabel("Menu").click();
    await expect(mobile).toBeVisible();
    await mobile.getByRole("link", { name: "Categories", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Furniture Categories" })).toBeVisible();
    await expect(mobile).toBeHidden();
  });
});

test("header turns solid on scroll", async ({ page }, testInfo) => {
  test.skip(!jsEnabled(testInfo.project.name), "needs JavaScript; without it the header is always solid");
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header).toHaveAttribute("data-scrolled", "false");
  await page.evaluate(() => window.scrollTo(0, 200));
  await expect(header).toHaveAttribute("data-scrolled", "true");
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(header).toHaveAttribute("data-scrolled", "false");
});

test("header without JavaScript is solid", async ({ page }, testInfo) => {
  test.skip(jsEnabled(testInfo.project.name), "JavaScript changes it on scroll");
  await page.goto("/");
  await expect(page.getByRole("banner")).toHaveAttribute("data-scrolled", "true");
});

test("footer", async ({ page }) => {
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Sagwan Living. All rights reserved.`);
  const categories = footer.getByRole("navigation", { name: "Footer categories" }).getByRole("link");
  await expect(categories).toHaveText(["Living Room", "Bedroom", "Dining Room", "Office", "Outdoor"]);
  for (const slug of ["living-room", "bedroom", "dining-room", "office", "outdoor"]) {
    await expect(footer.locator(`a[href="/category/${slug}"]`)).toHaveCount(1);
  }
  await expect(footer.getByRole("link", { name: "My Account" })).toHaveAttribute("href", "/profile");
  for (const p of POLICIES) {
    await expect(footer.getByRole("link", { name: p.name, exact: true })).toHaveAttribute("href", p.href);
  }
  for (const social of ["Facebook", "Instagram", "Twitter"]) {
    await expect(footer.getByRole("link", { name: social })).toHaveAttribute("href", /^https:\/\//);
  }
  await expect(footer).toContainText("Mon-Sat: 10:00 AM-8:00 PM");
  await expect(footer).toContainText("Sun: 11:00 AM-6:00 PM");
  await expect(footer).toContainText("since 2005");

  await footer.getByRole("link", { name: "Living Room" }).click();
  await expect(page).toHaveURL(/\/category\/living-room$/);
  await expect(page.getByRole("heading", { level: 1, name: "Living Room" })).toBeVisible();
  // the new page starts at the top (spec: scroll to top on every route change)
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

for (const policy of POLICIES) {
  test(`policy page ${policy.href}`, async ({ page }) => {
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("link", { name: policy.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${policy.href.replace("&", "(&|%26)")}$`));
    await expect(page.getByRole("heading", { level: 1, name: policy.title })).toBeVisible();
    await expect(page.getByText("Effective date: July 2025")).toBeVisible();
    // Without JavaScript the link is a full page load that may still be streaming in: count the
    // sections once the whole document is parsed (once, a flake: 1 of the page's sections counted).
    await page.waitForLoadState("domcontentloaded");
    const sections = page.getByRole("heading", { level: 2, name: /^\d+\. / });
    expect(await sections.count()).toBeGreaterThanOrEqual(3);
    const texts = await sections.allTextContents();
    texts.forEach((t, i) => expect(t.trim().startsWith(`${i + 1}. `), `section ${i + 1}: ${t}`).toBe(true));
  });
}

test("about page", async ({ page }) => {
  await page.goto("/about");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("since 2005").first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Our Story" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Our Vision" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Meet Our Team" })).toBeVisible();
  const team = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Meet Our Team" }) })
    .getByRole("listitem");
  expect(await team.count()).toBeGreaterThan(0);
  for (const member of await team.all()) {
    await expect(member.getByRole("heading", { level: 3 })).not.toBeEmpty();
    await expect(member.getByRole("img")).toHaveAttribute("src", /^\//);
  }
  await expect(page.getByRole("link", { name: "Contact Us" }).last()).toHaveAttribute("href", "/contact");
  await expect(page.getByRole("link", { name: "Browse Collections" })).toHaveAttribute("href", "/categories");
});

test("security headers on a document", async ({ page }) => {
  const response = await page.goto("/");
  expect(response).not.toBeNull();
  const headers = response!.headers();
  const csp = headers["content-security-policy"];
  expect(csp).toBeTruthy();
  const nonce = /'nonce-([A-Za-z0-9+/=_-]{16,})'/.exec(csp)?.[1];
  expect(nonce, `nonce in ${csp}`).toBeTruthy();
  expect(csp).toContain("default-src 'self'");
  expect(csp).not.toContain("'unsafe-inline' 'nonce"); // scripts: self + nonce only
  expect(headers["x-content-type-options"]).toBe("nosniff");

  // The nonce is fresh per response and is the one the page's scripts carry.
  const again = await page.request.get("/");
  const nonce2 = /'nonce-([^']+)'/.exec(again.headers()["content-security-policy"])?.[1];
  expect(nonce2).toBeTruthy();
  expect(nonce2).not.toBe(nonce);
  const html = await again.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce2}"`);
});
