// The staff's product form, as a test drives it: open a product for editing, change some fields,
// save. The admin action must take it (a redirect).
import { expect } from "vitest";
import * as productsPage from "~/routes/admin.products";
import { asRecord, call } from "./route-calls";
import { getRequest, ORIGIN } from "./requests";

/** Saves product `id` through the admin form with `changes` (field name → value) over what it shows. */
export async function saveProductForm(adminCookie: string, id: number, changes: Record<string, string>): Promise<void> {
  const opened = asRecord(
    asRecord((await call(productsPage.loader, getRequest(`/admin/products?edit=${id}`, { Cookie: adminCookie }))).body).editing,
  );
  const fields: Record<string, string> = {
    intent: "update",
    id: String(opened.id),
    version: String(opened.version),
    stockSeen: String(opened.stock),
    title: String(opened.title),
    categoryId: String(opened.categoryId),
    price: String(opened.price),
    imgPath: String(opened.imgPath),
    description: String(opened.description),
    inStock: "on",
    ...changes,
  };
  const saved = await call(
    productsPage.action,
    new Request(`${ORIGIN}/admin/products`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", Cookie: adminCookie },
      body: new URLSearchParams(fields).toString(),
    }),
  );
  expect([302, 303]).toContain(saved.status);
}
