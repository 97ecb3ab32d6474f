import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { env } from "./env.server";
import { persistentSecret } from "./secrets.server";

describe("persistentSecret", () => {
  it("generates a long secret once and reads it back", () => {
    const first = persistentSecret("probe-long");
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(persistentSecret("probe-long")).toBe(first);
  });

  it("refuses a secret file that is too short instead of signing with it", () => {
    fs.mkdirSync(env.DATA_DIR, { recursive: true });
    fs.writeFileSync(path.resolve(env.DATA_DIR, "probe-short.secret"), "short");
    expect(() => persistentSecret("probe-short")).toThrow(/shorter than 32 characters/);
  });
});
