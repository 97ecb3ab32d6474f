// Product photos, with JavaScript off (phone) and on (desktop, and a phone with touch). The storefront's gallery on the demo
// sofa (photos made at seed time): the main photo a <picture> of AVIF and WebP renditions, sized
// for the layout and never lazy; thumbnails that are links (?photo=N) without JavaScript and switch
// in place with it (and the arrow keys, and a swipe). The staff's photos page: several photos uploaded in one
// post, a file that is not an image refused beside its field, a photo moved and deleted.
import sharp from "sharp";
import { expectFieldError, openAdmin, shot } from "../support/e2e/admin";
import { toast } from "../support/e2e/accounts";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors, noteDeletedUpload } from "../support/e2e/helpers";

const SOFA = "/product/sheesham-wood-3-seater-sofa";

test("the product gallery: the main photo's renditions, thumbnails that switch it, else the drawing", async ({ page }, testInfo) => {
  const js = jsEnabled(testInfo.project.name);
  await page.goto(`${SOFA}?tab=specifications`);
  const main = page.locator("main picture").first();
  const img = main.locator("img");
  await expect(main.locator('source[type="image/avif"]')).toHaveAttribute("srcset", /-160\.avif 160w, .*-800\.avif 800w$/);
  await expect(main.locator('source[type="image/webp"]')).toHaveAttribute("sizes", /calc\(100vw - 2rem\)$/);
  await expect(img).toHaveAttribute("fetchpriority", "high");
  await expect(img).not.toHaveAttribute("loading", "lazy");
  await expect(img).toHaveAttribute("width", "800");
  await expect(img).toHaveAttribute("height", "600");
  await expect(img).toHaveAttribute("alt", "Sheesham Wood 3-Seater Sofa, front view");
  // The browser picked a rendition (AVIF where it can) and drew it.
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  expect(await img.evaluate((el: HTMLImageElement) => el.currentSrc)).toMatch(/\/uploads\/[a-f0-9]{32}-\d+\.(avif|webp)$/);

  const thumbs = page.getByRole("list", { name: "Photos" }).getByRole("link");
  await expect(thumbs).toHaveCount(3);
  await expect(thumbs.nth(0)).toHaveAttribute("aria-current", "true");
  await expect(thumbs.nth(1)).toHaveAttribute("href", /\?tab=specifications&photo=2$/);
  await expect(thumbs.nth(1).locator("img")).toHaveAttribute("loading", "lazy");
  await shot(page, testInfo, "product-gallery");

  await thumbs.nth(1).click();
  await expect(img).toHaveAttribute("alt", "Sheesham Wood 3-Seater Sofa, from the other side, in warm light");
  await expect(thumbs.nth(1)).toHaveAttribute("aria-current", "true");
  if (js) {
    // Switched in place: no navigation.
    expect(new URL(page.url()).search).toBe("?tab=specifications");
    // The arrow keys, on the thumbnails.
    await thumbs.nth(1).focus();
    await page.keyboard.press("ArrowRight");
    await expect(img).toHaveAttribute("alt", "Sheesham Wood 3-Seater Sofa, close-up");
    await page.keyboard.press("ArrowRight");
    await expect(img).toHaveAttribute("alt", "Sheesham Wood 3-Seater Sofa, front view");
    await page.keyboard.press("ArrowLeft");
    await expect(img).toHaveAttribute("alt", "Sheesham Wood 3-Seater Sofa, close-up");
    // A swipe to the left over the photo: the next one (back to the first).
    await main.evaluate((el) => {
      const touch = (x: number) => new Touch({ identifier: 1, target: el, clientX: x, clientY: 100 });
      el.dispatchEvent(new TouchEvent("touchstart", { touches: [touch(300)], changedTouches: [touch(300)], bubbles: true }));
      el.dispatchEvent(new TouchEvent("touchend", { touches: [], changedTouches: [touch(200)], bubbles: true }));
    });
    await expect(img).toHaveAttribute("alt", "Sheesham Wood 3-Seater Sofa, front view");
  } else {
    // A link followed: the page's address names the photo, the other parameters kept.
    expect(new URL(page.url()).search).toBe("?tab=specifications&photo=2");
    await expect(page.getByRole("tab", { name: "Specifications" })).toHaveAttribute("aria-selected", "true");
  }

  // A product without photos keeps its drawing.
  await page.goto("/product/ergonomic-mesh-office-chair");
  const drawing = page.locator('main img[src="/images/products/ergonomic-mesh-office-chair.svg"]');
  await expect(drawing).toHaveAttribute("fetchpriority", "high");
  await expect(page.locator("main picture")).toHaveCount(0);
});

/** A JPEG of one colour, made here. */
const jpeg = async (name: string, colour: string) => ({
  name,
  mimeType: "image/jpeg",
  buffer: await sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
    .jpeg()
    .toBuffer(),
});

test("the product photos page: upload several, a non-image refused, move and delete", async ({ page, consoleErrors }, testInfo) => {
  // Each project its own product: the two run at the same time against one shop.
  const title =
    { "no-js": "Wrought Iron Bistro Set", js: "Height Adjustable Standing Desk" }[testInfo.project.name] ??
    "Leatherette Executive High-Back Chair";
  await openAdmin(page, testInfo, `/admin/products?q=${encodeURIComponent(title)}`, "Products");
  await page.getByRole("link", { name: `Photos of ${title}` }).click();
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(`Photos of ${title}`);
  await expect(page.getByText("No photos yet.")).toBeVisible();

  const input = page.getByLabel("Photos", { exact: true });
  await input.setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not a photo at all") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expectFieldError(page, "Photos", "Please choose JPEG, PNG or WebP photos");
  dropExpectedStatusErrors(consoleErrors, 415);
  await expect(page.getByTestId("admin-photo")).toHaveCount(0);

  await page.getByLabel("Photos", { exact: true }).setInputFiles([await jpeg("oak.jpg", "#8b5a2b"), await jpeg("grey.jpg", "#777777")]);
  await page.getByLabel("Alt text", { exact: true }).first().fill(`${title} in the study`);
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(toast(page, "2 photos added")).toBeVisible();
  const photos = page.getByTestId("admin-photo");
  await expect(photos).toHaveCount(2);
  await expect(photos.nth(0).locator("img")).toHaveAttribute("alt", `${title} in the study`);
  const firstSrc = await photos.nth(0).locator("img").getAttribute("src");
  await shot(page, testInfo, "product-photos");

  await photos.nth(0).getByRole("button", { name: "Move down photo 1" }).click();
  await expect(toast(page, "Photo moved down")).toBeVisible();
  await expect(photos.nth(1).locator("img")).toHaveAttribute("src", firstSrc!);

  await noteDeletedUpload(testInfo, firstSrc!);
  await photos.nth(1).getByRole("button", { name: "Delete photo 2" }).click();
  await expect(toast(page, "Photo deleted")).toBeVisible();
  await expect(photos).toHaveCount(1);
  expect((await page.request.get(firstSrc!)).status()).toBe(404);
});
