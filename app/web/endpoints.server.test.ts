import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiEndpointId } from "~/web/api-endpoints.server";
import type { EndpointModule } from "./endpoints.server";
import { endpointPath, endpointsOf, findEndpoint } from "./endpoints.server";

const handler = () => null;
const module = { loader: handler, action: handler } satisfies EndpointModule;

describe("an endpoint module's path", () => {
  it("follows the flat-routes names the endpoints use", () => {
    expect(endpointPath("./api.cart.add.ts")).toBe("api/cart/add");
    expect(endpointPath("./api.orders_.$id.returns.ts")).toBe("api/orders/:id/returns");
    expect(endpointPath("./api.cart.clear_.$id.ts")).toBe("api/cart/clear/:id");
    expect(endpointPath("./api.item.detailBySlug.ts")).toBe("api/item/detailBySlug");
    expect(endpointPath("./api.furniture-items.featured.ts")).toBe("api/furniture-items/featured");
  });

  it("refuses the parts of the convention no endpoint uses, rather than answer another path", () => {
    for (const name of [
      "./api.$.ts",
      "./api.(optional).ts",
      "./api._pathless.ts",
      "./api.robots[.]txt.ts",
      "./api..x.ts",
      "./api.$a$b.ts",
    ]) {
      expect(() => endpointPath(name), name).toThrow(/Not an endpoint's file name/);
    }
  });

  it("must export a loader and an action", () => {
    expect(() => endpointsOf({ "./api.x.ts": { loader: handler } })).toThrow(/must export a loader and an action/);
  });
});

describe("finding the endpoint of a path", () => {
  const endpoints = endpointsOf({
    "./api.orders.ts": module,
    "./api.orders_.$id.ts": module,
    "./api.orders_.add.ts": module,
    "./api.orders_.$id.returns.ts": module,
  });
  const found = (pathname: string) => {
    const hit = findEndpoint(endpoints, pathname);
    return hit && { id: hit.route.id, params: hit.params };
  };

  it("ranks as Remix does: a static segment before a parameter", () => {
    expect(found("/api/orders")).toEqual({ id: "routes/api.orders", params: {} });
    expect(found("/api/orders/add")).toEqual({ id: "routes/api.orders_.add", params: {} });
    expect(found("/api/orders/order_42")).toEqual({ id: "routes/api.orders_.$id", params: { id: "order_42" } });
    expect(found("/api/orders/order_42/returns")).toEqual({ id: "routes/api.orders_.$id.returns", params: { id: "order_42" } });
  });

  it("ignores case and a trailing slash, and decodes a parameter", () => {
    expect(found("/API/Orders/ADD/")?.id).toBe("routes/api.orders_.add");
    expect(found("/api/orders/order%2042")?.params).toEqual({ id: "order 42" });
  });

  it("finds nothing for a path no endpoint answers", () => {
    expect(found("/api/orders/a/b")).toBeNull();
    expect(found("/api/order")).toBeNull();
    expect(found("/api")).toBeNull();
  });
});

describe("the shop's API", () => {
  it("answers each api.*.ts module's path with that module, and nothing else", () => {
    const dir = path.resolve(__dirname, "../routes");
    const files = fs.readdirSync(dir).filter((f) => /^api\..+\.ts$/.test(f) && !f.startsWith("api.$") && !/\.(test|server)\.ts$/.test(f));
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      const pathname = `/${endpointPath(file).replace(/:([a-z]+)/gi, "x1")}`;
      expect(apiEndpointId(pathname), pathname).toBe(`routes/${file.replace(/\.ts$/, "")}`);
    }
    expect(apiEndpointId("/api/no-such-endpoint")).toBeNull();
  });
});
