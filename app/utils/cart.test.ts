import { describe, expect, it } from "vitest";
import type { PendingPost } from "./cart";
import { addInFlight, CART_INTENTS, isCartPost, pendingCartCount, pendingLines } from "./cart";

/** A fetcher posting these fields to `action`. */
function post(action: string, fields: Record<string, string | number>): PendingPost {
  const formData = new FormData();
  for (const [k, v] of Object.entries(fields)) formData.set(k, String(v));
  return { formAction: action, formData };
}

const idle: PendingPost = { formAction: undefined, formData: undefined };
const lines = [
  { id: 1, quantity: 2 },
  { id: 2, quantity: 5 },
];

describe("cart posts", () => {
  it("the intents are the four the cart action takes", () => {
    expect(CART_INTENTS).toEqual(["add", "update", "remove", "clear"]);
  });

  it("only a fetcher posting to /cart is a cart post (query and trailing slash aside)", () => {
    expect(isCartPost(post("/cart", { intent: "add" }))).toBe(true);
    expect(isCartPost(post("/cart?index", { intent: "add" }))).toBe(true);
    expect(isCartPost(post("/cart/", { intent: "add" }))).toBe(true);
    expect(isCartPost(post("/wishlist", { intent: "add" }))).toBe(false);
    expect(isCartPost(post("/cartoons", { intent: "add" }))).toBe(false);
    expect(isCartPost(idle)).toBe(false);
  });
});

describe("pendingCartCount (the header badge)", () => {
  it("applies adds, updates, removals and a clear on their way to /cart", () => {
    expect(pendingCartCount(3, [])).toBe(3);
    expect(pendingCartCount(3, [post("/cart", { intent: "add", itemId: 9, quantity: 2 })])).toBe(5);
    expect(pendingCartCount(3, [post("/cart", { intent: "add", itemId: 9 })])).toBe(4);
    expect(pendingCartCount(3, [post("/cart", { intent: "update", id: 1, quantity: 4, previous: 2 })])).toBe(5);
    expect(pendingCartCount(3, [post("/cart", { intent: "remove", id: 1, previous: 2 })])).toBe(1);
    expect(pendingCartCount(3, [post("/cart", { intent: "clear" })])).toBe(0);
    expect(pendingCartCount(1, [post("/cart", { intent: "remove", id: 1, previous: 5 })])).toBe(0);
  });

  it("a wishlist add in flight does not raise the cart badge", () => {
    expect(pendingCartCount(3, [post("/wishlist", { intent: "add", itemId: 9 })])).toBe(3);
    expect(pendingCartCount(3, [post("/wishlist", { intent: "remove", itemId: 9 }), idle])).toBe(3);
  });
});

describe("pendingLines (the cart page)", () => {
  it("applies updates, removals and a clear posted to /cart", () => {
    expect(pendingLines(lines, [post("/cart", { intent: "update", id: 2, quantity: 7 })])).toEqual([
      { id: 1, quantity: 2 },
      { id: 2, quantity: 7 },
    ]);
    expect(pendingLines(lines, [post("/cart", { intent: "remove", id: 1 })])).toEqual([{ id: 2, quantity: 5 }]);
    expect(pendingLines(lines, [post("/cart", { intent: "clear" })])).toEqual([]);
    expect(pendingLines(lines, [post("/cart", { intent: "update", id: 2, quantity: 100 })])).toEqual(lines);
  });

  it("ignores posts elsewhere with the same fields", () => {
    expect(pendingLines(lines, [post("/wishlist", { intent: "remove", id: 1 }), post("/elsewhere", { intent: "clear" })])).toEqual(lines);
  });
});

describe("addInFlight (first add waits)", () => {
  it("is an add posted to /cart, not a wishlist add", () => {
    expect(addInFlight([post("/cart", { intent: "add", itemId: 1 })])).toBe(true);
    expect(addInFlight([post("/wishlist", { intent: "add", itemId: 1 })])).toBe(false);
    expect(addInFlight([post("/cart", { intent: "remove", id: 1 }), idle])).toBe(false);
  });
});
