// The JavaScript each storefront page ships, read from the build's Remix manifest
// (build/client/assets/manifest-*.js): the entry's module and imports plus, for every route the
// page matches (root and its own), the route's module and imports, each file counted once and
// gzipped at level 9, in KiB (1024 bytes). The same count tests/e2e/page-weight.spec.ts makes in a
// browser (every same-origin script until network idle), without one.
//
//   node scripts/page-weight.mjs [--json]     prints the table; used by npm run bench (ADR 0016)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLIENT = path.join(root, "build", "client");

/** Budget per page, JavaScript on (ADR 0016): KiB of gzip -9 (the goal is 90). */
export const JS_BUDGET_KIB = 95;

/** The storefront pages the budget holds for, by the route ids they match below root. */
export const PAGES = [
  { page: "home", routes: ["routes/_index"] },
  { page: "category", routes: ["routes/category.$slug"] },
  { page: "product", routes: ["routes/product.$slug"] },
  { page: "search", routes: ["routes/search"] },
];

function readManifest() {
  const assets = path.join(CLIENT, "assets");
  const file = fs.readdirSync(assets).find((f) => /^manifest-[0-9a-f]+\.js$/.test(f));
  if (!file) throw new Error(`no Remix manifest in ${assets}: build first (npm run build)`);
  const text = fs.readFileSync(path.join(assets, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
}

const gzipped = new Map();
function gzipBytes(url) {
  if (!gzipped.has(url)) {
    const body = fs.readFileSync(path.join(CLIENT, url));
    gzipped.set(url, { raw: body.length, gz: zlib.gzipSync(body, { level: 9 }).length });
  }
  return gzipped.get(url);
}

/** [{ page, kib, rawKib, files, scripts: [{ url, gz }] }] for every page of PAGES. */
export function pageWeights() {
  const manifest = readManifest();
  return PAGES.map(({ page, routes }) => {
    const urls = new Set([manifest.entry.module, ...manifest.entry.imports]);
    for (const id of ["root", ...routes]) {
      const route = manifest.routes[id];
      if (!route) throw new Error(`the manifest has no route ${id}`);
      for (const url of [route.module, ...(route.imports ?? [])]) urls.add(url);
    }
    const scripts = [...urls].map((url) => ({ url, ...gzipBytes(url) })).sort((a, b) => b.gz - a.gz);
    const sum = (key) => scripts.reduce((total, s) => total + s[key], 0) / 1024;
    return { page, kib: Number(sum("gz").toFixed(1)), rawKib: Number(sum("raw").toFixed(1)), files: scripts.length, scripts };
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const weights = pageWeights();
  if (process.argv.includes("--json")) console.info(JSON.stringify(weights, null, 2));
  else {
    for (const w of weights) {
      const files = String(w.files).padStart(2);
      console.info(`${w.page.padEnd(9)} ${w.kib.toFixed(1).padStart(6)} KiB gz  ${files} files  (budget ${JS_BUDGET_KIB})`);
      if (!process.argv.includes("--files")) continue;
      for (const s of w.scripts) console.info(`    ${(s.gz / 1024).toFixed(2).padStart(6)}  ${s.url}`);
    }
  }
}
