// The production server's compile: server/index.ts and server/worker.ts (with the app/lib modules
// they import) bundled by esbuild into build/server.js and build/worker.js, beside the Remix build
// they serve (build/server/index.js, build/client/). npm packages stay imports. About 0.1 s, so
// whatever starts a server (npm start, the cluster, the crash test, the tests' servers) calls
// entryArgs(): the entry's Node options and serverEntry(), which compiles again only when an output
// is missing or older than one of its sources. docs/decisions/0021-typed-server.md.
//
//   node scripts/build-server.mjs      (the second half of `npm run build`)
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const buildDir = path.join(root, "build");
const ENTRIES = { server: "server/index.ts", worker: "server/worker.ts" };
/** The sources each output was compiled from (esbuild's metafile), to tell when it is stale. */
const inputsFile = path.join(buildDir, "server-inputs.json");

/** Compiles both entries; writes each file whole (a server starting meanwhile never reads half a file). */
export function buildServer() {
  // esbuild is needed only to compile: a production install without dev packages runs a build made before.
  const esbuild = createRequire(import.meta.url)("esbuild");
  const result = esbuild.buildSync({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    outdir: buildDir,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  fs.mkdirSync(buildDir, { recursive: true });
  const inputs = Object.keys(result.metafile.inputs).map((file) => path.relative(root, path.resolve(root, file)));
  for (const file of [...result.outputFiles, { path: inputsFile, contents: Buffer.from(JSON.stringify(inputs)) }]) {
    const partial = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(partial, file.contents);
    fs.renameSync(partial, file.path);
  }
}

function isStale(output) {
  if (!fs.existsSync(output) || !fs.existsSync(inputsFile)) return true;
  const built = fs.statSync(output).mtimeMs;
  const inputs = JSON.parse(fs.readFileSync(inputsFile, "utf8"));
  return inputs.some((file) => {
    const full = path.join(root, file);
    return !fs.existsSync(full) || fs.statSync(full).mtimeMs > built;
  });
}

/** The compiled entry ("server" or "worker"), compiled first when missing or older than its sources. */
export function serverEntry(name = "server") {
  if (!(name in ENTRIES)) throw new Error(`no server entry named ${name}`);
  const output = path.join(buildDir, `${name}.js`);
  if (isStale(output)) buildServer();
  return output;
}

/**
 * Node's options for an entry. The web server's young generation is larger than Node's default
 * (16 MB semi-spaces): a rendered page allocates a few hundred kilobytes that die with its request,
 * and with ten requests in flight the default space fills every few requests, each collection
 * copying whatever the requests in flight still hold. At 64 MB the server answers 3-9 % more
 * rendered pages a second, for about 300 MB more memory under load (ADR 0016). The worker keeps
 * the default.
 */
export const NODE_OPTIONS = { server: ["--max-semi-space-size=64"], worker: [] };

/** The arguments to start an entry with `node`: its options, then its compiled file. */
export function entryArgs(name = "server") {
  return [...NODE_OPTIONS[name], serverEntry(name)];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServer();
  console.info(`Compiled ${Object.values(ENTRIES).join(" and ")} into build/`);
}
