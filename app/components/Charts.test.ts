import { describe, expect, it } from "vitest";
import { niceCeiling } from "./Charts";

describe("niceCeiling", () => {
  it("a round axis top at or above the largest value", () => {
    expect(niceCeiling(0)).toBe(1);
    expect(niceCeiling(4)).toBe(5);
    expect(niceCeiling(70_800)).toBe(1_00_000);
    expect(niceCeiling(21_000)).toBe(25_000);
    expect(niceCeiling(100)).toBe(100);
    expect(niceCeiling(101)).toBe(200);
  });
});
