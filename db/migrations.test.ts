import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrations } from "./migrations";

describe("migration registry", () => {
  it("registers every file in migrations/, in date order, under its file name", () => {
    const dir = path.resolve(__dirname, "../migrations");
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^\d{4}-\d{2}-\d{2}-\d{4}-[a-z0-9-]+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ""))
      .sort();
    expect(fs.readdirSync(dir).every((f) => files.includes(f.replace(/\.ts$/, "")))).toBe(true);
    expect(Object.keys(migrations)).toEqual(files);
  });
});
