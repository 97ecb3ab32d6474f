// The Remix server build's import, which boots the app (environment check, migrations, clock,
// secrets): a reason not to start (a StartupError: a bad variable, a secret the other servers do
// not share, migrations newer than this code, a clock off the database's) is printed alone, one
// line without a stack, and the process exits 1. Used by server/index.ts and server/worker.ts.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import type * as entryModule from "../app/entry.server";

/** What app/entry.server.tsx exports beside Remix's own: the lifecycle, the page cache's generation, the worker. */
export type ShopEntry = typeof entryModule;

/** The build folder: this file is compiled into build/ (scripts/build-server.mjs). */
export const buildDir = path.dirname(fileURLToPath(import.meta.url));
export const remixBuildPath = path.join(buildDir, "server", "index.js");

/** The Remix build with the shop's entry module, once the app has booted; exits 1 on a reason not to start. */
export async function importBuild(tag: string): Promise<ServerBuild & { entry: { module: ShopEntry } }> {
  try {
    return await import(pathToFileURL(remixBuildPath).href);
  } catch (error) {
    if ((error as Error | null)?.name !== "StartupError") throw error;
    console.error(`[${tag}] not started: ${(error as Error).message}`);
    process.exit(1);
  }
}
