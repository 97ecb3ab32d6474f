// After the whole browser suite: the production server's log of the run holds none of the secrets
// the run handled. The secrets are gathered from where the run left them: the admin password and
// the test customers' password (tests/support/e2e/customers.ts), the secrets the server generated
// into its data folder (*.secret), and every reset or confirmation link's token the shop mailed.
// API tokens and session cookies have no value known here: their shapes are looked for instead.
// (Verification codes are four digits, which a log holds for other reasons: the observability
// test sends known codes and checks the log for them.)
import fs from "node:fs";
import path from "node:path";
import { E2E_ADMIN_PASSWORD, E2E_DATA_DIR, E2E_SERVER_LOG, MAIL_DIR } from "../../../playwright.config";
import { DEFAULT_PASSWORD } from "./customers";

function mailedTokens(): string[] {
  if (!fs.existsSync(MAIL_DIR)) return [];
  const tokens = new Set<string>();
  for (const name of fs.readdirSync(MAIL_DIR)) {
    if (!name.endsWith(".json")) continue;
    const text = fs.readFileSync(path.join(MAIL_DIR, name), "utf8");
    for (const match of text.matchAll(/[?&]token=([\w.~-]{16,})/g)) tokens.add(match[1]!);
  }
  return [...tokens];
}

function generatedSecrets(): string[] {
  return fs
    .readdirSync(E2E_DATA_DIR)
    .filter((name) => name.endsWith(".secret"))
    .map((name) => fs.readFileSync(path.join(E2E_DATA_DIR, name), "utf8").trim())
    .filter((value) => value.length >= 16);
}

export default function checkServerLog() {
  // The cluster writes its servers' logs elsewhere (scripts/cluster.mjs); this checks the one server.
  if (!fs.existsSync(E2E_SERVER_LOG)) return;
  const log = fs.readFileSync(E2E_SERVER_LOG, "utf8");
  const known: [string, string][] = [
    ["the admin password", E2E_ADMIN_PASSWORD],
    ["the test customers' password", DEFAULT_PASSWORD],
    ...generatedSecrets().map((value): [string, string] => ["a generated secret", value]),
    ...mailedTokens().map((value): [string, string] => ["a mailed link's token", value]),
  ];
  const found = known.filter(([, value]) => log.includes(value)).map(([what]) => what);
  if (/\bslt_[\w-]{20,}/.test(log)) found.push("an API token (slt_…)");
  if (/__session=[^;\s]{8,}/.test(log)) found.push("a session cookie");
  if (found.length > 0) {
    throw new Error(`The server's log of this run (${E2E_SERVER_LOG}) holds ${[...new Set(found)].join(", ")}.`);
  }
  console.info(`The server's log of this run holds none of ${known.length} secrets (${E2E_SERVER_LOG}).`);
}
