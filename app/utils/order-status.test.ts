import { describe, expect, it } from "vitest";
import type { OrderStatus } from "~/lib/db-schema";
import {
  type Actor,
  checkReturnTransition,
  checkTransition,
  nextStatuses,
  ORDER_STATUSES,
  RETURN_WINDOW_HOURS,
  returnWindowEnd,
  STATUS_LABEL,
  statusBadgeClass,
  statusLabel,
} from "./order-status";

const ACTORS: readonly Actor[] = ["customer", "admin"];

type Expected = { ok: true } | { ok: false; status: 403 | 409; message?: string | RegExp };
const ok: Expected = { ok: true };
const forbidden: Expected = { ok: false, status: 403, message: /only the shop/i };
const tooLate: Expected = { ok: false, status: 409, message: /only processing orders can be cancelled/i };
const conflict: Expected = { ok: false, status: 409 };

/** The table of docs/product.md: every from × to × actor, written out in full. */
const TABLE: Record<OrderStatus, Record<OrderStatus, Record<Actor, Expected>>> = {
  processing: {
    processing: { customer: conflict, admin: conflict },
    shipped: { customer: forbidden, admin: ok },
    delivered: { customer: conflict, admin: conflict },
    cancelled: { customer: ok, admin: ok },
  },
  shipped: {
    processing: { customer: conflict, admin: conflict },
    shipped: { customer: conflict, admin: conflict },
    delivered: { customer: forbidden, admin: ok },
    cancelled: { customer: tooLate, admin: ok },
  },
  delivered: {
    processing: { customer: conflict, admin: conflict },
    shipped: { customer: conflict, admin: conflict },
    delivered: { customer: conflict, admin: conflict },
    cancelled: { customer: conflict, admin: conflict },
  },
  cancelled: {
    processing: { customer: conflict, admin: conflict },
    shipped: { customer: conflict, admin: conflict },
    delivered: { customer: conflict, admin: conflict },
    cancelled: { customer: conflict, admin: conflict },
  },
};

const cases = ORDER_STATUSES.flatMap((from) =>
  ORDER_STATUSES.flatMap((to) => ACTORS.map((actor) => ({ from, to, actor, expected: TABLE[from][to][actor] }))),
);

describe("checkTransition", () => {
  it("covers all 32 combinations of the four statuses and two actors", () => {
    expect([...ORDER_STATUSES].sort()).toEqual(["cancelled", "delivered", "processing", "shipped"]);
    expect(cases).toHaveLength(32);
  });

  it.each(cases)("$from → $to by $actor", ({ from, to, actor, expected }) => {
    const result = checkTransition(from, to, actor);
    if (expected.ok) {
      expect(result).toEqual({ ok: true });
      return;
    }
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(expected.status);
    expect(result.message.length).toBeGreaterThan(0);
    if (expected.message) expect(result.message).toMatch(expected.message);
  });

  it("only six moves are allowed at all", () => {
    const allowed = cases
      .filter(({ from, to, actor }) => checkTransition(from, to, actor).ok)
      .map(({ from, to, actor }) => `${from}>${to}:${actor}`);
    expect(allowed.sort()).toEqual(
      [
        "processing>shipped:admin",
        "processing>cancelled:customer",
        "processing>cancelled:admin",
        "shipped>delivered:admin",
        "shipped>cancelled:admin",
      ].sort(),
    );
  });

  it("a customer cancelling a shipped order gets 409 saying only processing orders can be cancelled", () => {
    const result = checkTransition("shipped", "cancelled", "customer");
    expect(result).toEqual({ ok: false, status: 409, message: expect.stringContaining("Only processing orders can be cancelled") });
  });

  it("a customer shipping or delivering is refused with 403 (the shop may)", () => {
    expect(checkTransition("processing", "shipped", "customer")).toMatchObject({ ok: false, status: 403 });
    expect(checkTransition("shipped", "delivered", "customer")).toMatchObject({ ok: false, status: 403 });
  });

  it("the same status is a 409 saying it already is that", () => {
    for (const status of ORDER_STATUSES) {
      for (const actor of ACTORS) {
        const result = checkTransition(status, status, actor);
        expect(result).toMatchObject({ ok: false, status: 409 });
        if (!result.ok) expect(result.message).toContain(`already ${status}`);
      }
    }
  });

  it("nothing leaves delivered or cancelled: 409 naming the final status", () => {
    for (const from of ["delivered", "cancelled"] as const) {
      for (const to of ORDER_STATUSES.filter((s) => s !== from)) {
        for (const actor of ACTORS) {
          const result = checkTransition(from, to, actor);
          expect(result).toMatchObject({ ok: false, status: 409 });
          if (!result.ok) expect(result.message).toContain(from);
        }
      }
    }
  });

  it("processing → delivered skips shipping: 409 for anyone, including the shop", () => {
    for (const actor of ACTORS) {
      const result = checkTransition("processing", "delivered", actor);
      expect(result).toMatchObject({ ok: false, status: 409 });
      if (!result.ok) expect(result.message).toMatch(/processing.*delivered/);
    }
  });
});

describe("nextStatuses", () => {
  it("lists exactly the moves each actor may make", () => {
    expect(nextStatuses("processing", "admin")).toEqual(["shipped", "cancelled"]);
    expect(nextStatuses("processing", "customer")).toEqual(["cancelled"]);
    expect(nextStatuses("shipped", "admin")).toEqual(["delivered", "cancelled"]);
    expect(nextStatuses("shipped", "customer")).toEqual([]);
    for (const actor of ACTORS) {
      expect(nextStatuses("delivered", actor)).toEqual([]);
      expect(nextStatuses("cancelled", actor)).toEqual([]);
    }
  });

  it("agrees with checkTransition everywhere", () => {
    for (const from of ORDER_STATUSES) {
      for (const actor of ACTORS) {
        const expected = ORDER_STATUSES.filter((to) => TABLE[from][to][actor].ok);
        expect(nextStatuses(from, actor)).toEqual(expected);
      }
    }
  });
});

describe("statusBadgeClass", () => {
  it.each([
    ["processing", "yellow"],
    ["shipped", "blue"],
    ["delivered", "green"],
    ["cancelled", "red"],
    ["refunded", "yellow"],
    ["", "yellow"],
    ["SHIPPED", "yellow"],
  ])("%j is %s", (status, colour) => {
    const classes = statusBadgeClass(status);
    expect(classes).toContain(`bg-${colour}-`);
    expect(classes).toContain(`text-${colour}-`);
    for (const other of ["yellow", "blue", "green", "red"].filter((c) => c !== colour)) expect(classes).not.toContain(other);
  });

  it("the four statuses have four different colours", () => {
    expect(new Set(ORDER_STATUSES.map(statusBadgeClass)).size).toBe(4);
  });
});

describe("statusLabel", () => {
  it("capitalises the known statuses", () => {
    expect(statusLabel("processing")).toBe("Processing");
    expect(statusLabel("shipped")).toBe("Shipped");
    expect(statusLabel("delivered")).toBe("Delivered");
    expect(statusLabel("cancelled")).toBe("Cancelled");
    expect(Object.keys(STATUS_LABEL).sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it("shows anything else as it is", () => {
    expect(statusLabel("on-hold")).toBe("on-hold");
    expect(statusLabel("")).toBe("");
  });
});

describe("return states", () => {
  it("the customer asks; only the shop approves, rejects and receives; rejected and returned are final", () => {
    expect(checkReturnTransition("requested", "approved", "admin")).toEqual({ ok: true });
    expect(checkReturnTransition("requested", "rejected", "admin")).toEqual({ ok: true });
    expect(checkReturnTransition("approved", "returned", "admin")).toEqual({ ok: true });
    expect(checkReturnTransition("requested", "approved", "customer")).toMatchObject({ ok: false, status: 403 });
    for (const [from, to] of [
      ["requested", "returned"],
      ["rejected", "approved"],
      ["returned", "approved"],
      ["approved", "rejected"],
      ["approved", "approved"],
    ] as const) {
      expect(checkReturnTransition(from, to, "admin")).toMatchObject({ ok: false, status: 409 });
    }
    expect(Date.parse(returnWindowEnd("2026-11-20T10:00:00.000Z")) - Date.parse("2026-11-20T10:00:00.000Z")).toBe(
      RETURN_WINDOW_HOURS * 3600_000,
    );
    expect(RETURN_WINDOW_HOURS).toBe(48);
  });
});
