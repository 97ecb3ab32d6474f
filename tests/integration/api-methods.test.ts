// Methods an API path does not serve, and paths that do not exist, answer the error JSON of docs/api.md.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import * as unknownApi from "~/routes/api.$";
import * as cartAdd from "~/routes/api.cart.add";
import * as categoryList from "~/routes/api.category.list";
import { getRequest, jsonRequest } from "../support/requests";
import { call, expectApiError } from "../support/route-calls";

beforeAll(async () => {
  await ready;
});

describe("API methods and paths", () => {
  it("GET on a POST-only path answers 405 JSON with Allow", async () => {
    const answer = await call(cartAdd.loader, getRequest("/api/cart/add"));
    expectApiError(answer, 405);
    expect(answer.headers.get("Allow")).toBe("POST");
  });

  it("POST on a GET-only path answers 405 from this site and 403 from another", async () => {
    const own = await call(categoryList.action, jsonRequest("POST", "/api/category/list", {}));
    expectApiError(own, 405);
    expect(own.headers.get("Allow")).toBe("GET");
    const foreign = await call(categoryList.action, jsonRequest("POST", "/api/category/list", {}, { Origin: "https://evil.example" }));
    expectApiError(foreign, 403);
  });

  it("an unknown API path answers 404 JSON for reads and writes", async () => {
    expectApiError(await call(unknownApi.loader, getRequest("/api/nope")), 404);
    expectApiError(await call(unknownApi.action, jsonRequest("DELETE", "/api/nope", undefined)), 404);
    expectApiError(await call(unknownApi.action, jsonRequest("POST", "/api/nope", {}, { Origin: "https://evil.example" })), 403);
  });
});

describe("refused adds leave nothing behind", () => {
  it("an out-of-stock or unknown item from a new visitor creates no cart and no session", async () => {
    const count = async () => ({
      carts: (await db.selectFrom("carts").select("id").execute()).length,
      sessions: (await db.selectFrom("sessions").select("id").execute()).length,
    });
    const before = await count();
    const outOfStock = await db.selectFrom("items").select("id").where("stock", "=", 0).executeTakeFirstOrThrow();
    const refused = await call(cartAdd.action, jsonRequest("POST", "/api/cart/add", { itemId: outOfStock.id, quantity: 1 }));
    expectApiError(refused, 409);
    expect(refused.headers.get("Set-Cookie")).toBeNull();
    expectApiError(await call(cartAdd.action, jsonRequest("POST", "/api/cart/add", { itemId: 999_999, quantity: 1 })), 404);
    expect(await count()).toEqual(before);
  });
});
