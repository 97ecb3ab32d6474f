// Code and docs stand alone: a reader has the repository, not the tracker or the reviews that led
// to it. So no comment names a tracker number, a round of reviews or a finding ("see the third
// review"), nor a path outside the repository (the shared folder beside it): it says what and why
// itself. And an ADR records one decision in two pages at most: measurement logs go to docs/perf/,
// a second decision to a record of its own. Landed migrations are left as they are (a landed
// migration is never edited).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");

/** An ADR's length limit: two pages. */
const ADR_MAX_LINES = 200;

/** What a comment must not cite (spelt with \s, so that this file is no hit of a grep for the same). */
const CITATION = new RegExp(["\\bissue\\s[0-9]+", "\\breview\\s(round|finding)", "\\bsecurity\\sreview", "\\.\\./shared/"].join("|"), "i");

/** The folders and files whose comments are read, relative to the root. */
const SOURCES = ["app", "server", "scripts", "tests", "db", "vite.config.ts", "playwright.config.ts", "eslint.config.js"];
const CODE = /\.(ts|tsx|js|mjs|cjs)$/;
const SHELL = /\.sh$/;

function filesUnder(relative: string): string[] {
  const full = path.join(root, relative);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [relative];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .flatMap((entry) => (entry.name === "node_modules" ? [] : filesUnder(path.join(relative, entry.name))));
}

/** The comments of a source file with the line each starts on: `//` and `/* … *\/` in code, `#` in shell. */
function commentsOf(text: string, shell: boolean): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  const pattern = shell ? /(^|\s)#.*$/gm : /\/\*[\s\S]*?\*\/|\/\/.*$/gm;
  for (const match of text.matchAll(pattern)) {
    found.push({ line: text.slice(0, match.index).split("\n").length, text: match[0] });
  }
  return found;
}

describe("comments stand alone", () => {
  it("finds comments in code and in shell scripts", () => {
    expect(commentsOf("const a = 1; // one\n/* two\n three */\nconst b = '#';", false).map((c) => c.line)).toEqual([1, 2]);
    expect(commentsOf("set -e\n# why\necho x # and this", true).map((c) => c.text.trim())).toEqual(["# why", "# and this"]);
    expect(CITATION.test(["(issue", "12, defect 3)"].join(" "))).toBe(true);
    expect(CITATION.test("the fifth Security Review found")).toBe(true);
    expect(CITATION.test("as ../shared/perf measures it")).toBe(true);
    expect(CITATION.test("a review's id does not tell it is hidden")).toBe(false);
  });

  it("no comment cites a tracker number, a round of reviews or a path outside the repository", () => {
    const offending: string[] = [];
    for (const file of SOURCES.flatMap(filesUnder)) {
      if (!CODE.test(file) && !SHELL.test(file)) continue;
      const text = fs.readFileSync(path.join(root, file), "utf8");
      for (const comment of commentsOf(text, SHELL.test(file))) {
        const lines = comment.text.split("\n");
        lines.forEach((line, i) => {
          if (CITATION.test(line)) offending.push(`${file}:${comment.line + i}: ${line.trim()}`);
        });
      }
    }
    expect(offending).toEqual([]);
  });
});

describe("ADRs", () => {
  const dir = path.join(root, "docs", "decisions");
  const records = fs.readdirSync(dir).filter((name) => /^\d{4}-.+\.md$/.test(name));

  it(`are each under ${ADR_MAX_LINES} lines`, () => {
    expect(records.length).toBeGreaterThan(20);
    const long = records
      .map((name) => ({ name, lines: fs.readFileSync(path.join(dir, name), "utf8").trimEnd().split("\n").length }))
      .filter((record) => record.lines >= ADR_MAX_LINES)
      .map((record) => `${record.name}: ${record.lines} lines`);
    expect(long).toEqual([]);
  });

  it("give their status and date, not a tracker number", () => {
    for (const name of records) {
      const text = fs.readFileSync(path.join(dir, name), "utf8");
      const status = text.split("\n").find((line) => /^(Status|Date):/.test(line));
      expect(status, name).toMatch(/\d{4}-\d{2}-\d{2}/);
      expect(text, name).not.toMatch(CITATION);
    }
  });
});
