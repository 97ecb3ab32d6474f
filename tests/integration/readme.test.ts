// The README's Commands table renders as a table: GitHub splits a row at every `|` that is not
// escaped, code spans included, so a stray one gives a row more cells than the header and the
// rest of the row spills out. Each row must have the header's cells, keep its code spans apart
// from the words beside them, and name real npm scripts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
const scripts = Object.keys(JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts);

/** A table row's cells as GitHub reads them: split at each unescaped `|`, the outer pipes dropped. */
function cells(row: string): string[] {
  const parts = row.trim().split(/(?<!\\)\|/);
  return parts.slice(1, -1).map((cell) => cell.trim());
}

/** The lines of the first table under a `## heading`. */
function tableUnder(heading: string): string[] {
  const section = readme.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? "";
  const lines = section.split("\n");
  const start = lines.findIndex((line) => line.startsWith("|"));
  if (start === -1) return [];
  const end = lines.findIndex((line, i) => i > start && !line.startsWith("|"));
  return lines.slice(start, end === -1 ? undefined : end);
}

describe("README's Commands table", () => {
  const [header = "", rule = "", ...rows] = tableUnder("Commands");

  it("has a header, a delimiter row and commands", () => {
    expect(cells(header)).toEqual(["command", "what it does"]);
    expect(cells(rule).every((cell) => /^:?-+:?$/.test(cell))).toBe(true);
    expect(rows.length).toBeGreaterThan(10);
  });

  it("gives every row exactly the header's cells, none empty", () => {
    const width = cells(header).length;
    for (const row of rows) {
      expect(cells(row), row).toHaveLength(width);
      expect(cells(row).every(Boolean), row).toBe(true);
    }
  });

  it("keeps its code spans apart from the words around them (Prettier once glued them: `a`and`b`)", () => {
    for (const row of rows) {
      for (const span of row.matchAll(/`[^`]+`/g)) {
        const before = row[span.index - 1] ?? " ";
        const after = row[span.index + span[0].length] ?? " ";
        expect(/\w/.test(before) || /\w/.test(after), row).toBe(false);
      }
    }
  });

  it("names only scripts package.json has, typecheck among them", () => {
    const named = rows.flatMap((row) => [...(cells(row)[0] ?? "").matchAll(/`npm (?:run )?([\w:-]+)`/g)].map((m) => m[1]!));
    expect(named).toContain("typecheck");
    for (const name of named) expect(scripts, name).toContain(name);
  });
});
