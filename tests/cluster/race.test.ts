// 50 customers race for the last 3 units across both servers (ADR 0020): each has one unit
// in the cart, and all place their orders (cash on delivery, through the API) at the same moment,
// half on server A and half on server B. Exactly 3 orders are placed, the others refused (409), and
// the stock ends at 0, never below: the stock's lock is the database's, not a server's.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Customer } from "../support/cluster/client";
import { adminClient, createProduct, registerCustomer, SHIPPING } from "../support/cluster/client";
import { ADMIN_PASSWORD, query, clusterForFile } from "../support/cluster/setup";

const cluster = clusterForFile();
const CUSTOMERS = 50;

/** Runs `task` over `inputs` with at most `width` at once. */
async function inBatches<T, R>(inputs: T[], width: number, task: (input: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(inputs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < inputs.length; i = next++) results[i] = await task(inputs[i]!, i);
    }),
  );
  return results;
}

describe("the last units, across two servers", () => {
  it(`${CUSTOMERS} customers racing for the last 3 units place exactly 3 orders`, async () => {
    const [A, B] = cluster().servers.map((s) => s.url) as [string, string];
    const admin = await adminClient(A, ADMIN_PASSWORD);
    const [category] = await query<{ id: number }>(cluster(), "select id from categories order by id limit 1");
    const title = `Last units ${crypto.randomBytes(4).toString("hex")}`;
    await createProduct(admin, A, { title, categoryId: category!.id, price: 4999, stock: 3 });
    const [item] = await query<{ id: number }>(cluster(), "select id from items where title = $1", [title]);

    // Registered on one server, verified on the other; each puts one unit in the cart.
    const customers: Customer[] = await inBatches(Array.from({ length: CUSTOMERS }), 8, async (_, i) => {
      const [here, there] = i % 2 === 0 ? [A, B] : [B, A];
      const customer = await registerCustomer(here, there, cluster().mailDir, `race${i}`);
      const added = await customer.send(there, "POST", "/api/cart/add", { json: { itemId: item!.id, quantity: 1 } });
      expect(added.status, added.text).toBeLessThan(300);
      return customer;
    });

    const answers = await Promise.all(
      customers.map((customer, i) =>
        customer.send(i % 2 === 0 ? A : B, "POST", "/api/orders/add", {
          json: { ...SHIPPING, paymentMethod: "cod", idempotencyKey: crypto.randomBytes(12).toString("hex") },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 201),
      `statuses: ${statuses.join(" ")}`,
    ).toHaveLength(3);
    expect(
      statuses.filter((s) => s !== 201).every((s) => s === 409),
      `statuses: ${statuses.join(" ")}`,
    ).toBe(true);

    const [{ stock }] = (await query<{ stock: number }>(cluster(), "select stock from items where id = $1", [item!.id])) as [
      { stock: number },
    ];
    expect(stock).toBe(0);
    const orders = await query<{ orderId: number; quantity: number }>(
      cluster(),
      `select order_id as "orderId", quantity from order_items where item_id = $1`,
      [item!.id],
    );
    expect(orders.map((o) => o.quantity)).toEqual([1, 1, 1]);
    const placedIds = answers.filter((a) => a.status === 201).map((a) => a.body.id as number);
    expect(orders.map((o) => o.orderId).sort((x, y) => x - y)).toEqual(placedIds.sort((x, y) => x - y));
  });
});
