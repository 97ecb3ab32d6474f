// Playwright drives Debian's Chromium (no browser download works here): by default its old
// headless shell (package chromium-headless-shell), the same kind of build Playwright itself runs
// for headless tests, and about a third of the full browser's CPU on this 2-core machine
// (docs/decisions/0010-browser-tests.md). CHROMIUM_PATH picks another build, /usr/bin/chromium say.
// Install the default with apt-get when it is missing and we run as root; otherwise fail clearly.
import { execSync } from "node:child_process";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const CHROMIUM = process.env.CHROMIUM_PATH || HEADLESS_SHELL;
const PACKAGES = { [HEADLESS_SHELL]: "chromium-headless-shell", "/usr/bin/chromium": "chromium" };

/** Installs the Chromium that CHROMIUM names, or exits with a message saying how. */
function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return;
  const pkg = PACKAGES[CHROMIUM];
  if (!pkg || process.getuid?.() !== 0) {
    const how = pkg ? `Install it with apt-get install ${pkg}` : "Install it";
    console.error(`Chromium not found at ${CHROMIUM}. ${how}, or set CHROMIUM_PATH to a Chromium that is there.`);
    process.exit(1);
  }
  console.info(`Chromium not found at ${CHROMIUM}: installing Debian's ${pkg} with apt-get…`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`, { stdio: "inherit" });
  if (!fs.existsSync(CHROMIUM)) {
    console.error("apt-get finished but Chromium is still missing.");
    process.exit(1);
  }
}

// Run as a script (npm test, npm run test:e2e); playwright.config.ts only reads CHROMIUM.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) ensureChromium();
