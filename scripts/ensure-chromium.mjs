// Playwright drives Debian's Chromium (no browser download works here). Install it with
// apt-get when it is missing and we run as root; otherwise fail with a clear message.
import { execSync } from "node:child_process";
import fs from "node:fs";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

if (!fs.existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error(`Chromium not found at ${CHROMIUM}. Install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
  console.info("Chromium not found: installing Debian's chromium with apt-get…");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", { stdio: "inherit" });
  if (!fs.existsSync(CHROMIUM)) {
    console.error("apt-get finished but Chromium is still missing.");
    process.exit(1);
  }
}
