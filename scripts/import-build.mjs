// The server build's import, which boots the app (environment check, migrations, clock, secrets):
// a reason not to start (a StartupError: a bad variable, a secret the other servers do not share,
// migrations newer than this code, a clock off the database's) is printed alone, one line without a
// stack, and the process exits 1. Used by scripts/server.mjs and scripts/worker.mjs.
import { pathToFileURL } from "node:url";

export async function importBuild(buildPath, tag) {
  try {
    return await import(pathToFileURL(buildPath).href);
  } catch (error) {
    if (error?.name !== "StartupError") throw error;
    console.error(`[${tag}] not started: ${error.message}`);
    process.exit(1);
  }
}
