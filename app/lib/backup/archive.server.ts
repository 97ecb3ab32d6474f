// The backup file (ADR 0029): one uncompressed tar whose first entry, manifest.json, says what the
// backup is (the database kind, the migrations its database had run, where its images were kept)
// and lists every other entry with its size and sha256. Reading checks the manifest first (so a
// backup that cannot be restored is refused before anything is unpacked), then every entry against
// it: a damaged, truncated or tampered file is refused as a whole.
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { finished, pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { z } from "zod";
import { uploadNameExt } from "../image-store.server";

export const MANIFEST = "manifest.json";
export const SQLITE_ENTRY = "database.sqlite";
export const PGDUMP_ENTRY = "database.pgdump";

/** The only entry names a backup has: no path can point outside the folder it is unpacked into. */
function isEntryName(name: string): boolean {
  if (name === SQLITE_ENTRY || name === PGDUMP_ENTRY) return true;
  if (name.startsWith("uploads/")) return uploadNameExt(name.slice("uploads/".length)) !== null;
  return /^secrets\/[a-z-]{1,40}\.secret$/.test(name);
}

const FileSchema = z.object({
  name: z.string().refine(isEntryName, "not an entry a backup has"),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[a-f0-9]{64}$/),
});

export const ManifestSchema = z.object({
  format: z.literal("sagwan-living-backup"),
  version: z.literal(1),
  createdAt: z.iso.datetime(),
  database: z.enum(["sqlite", "postgres"]),
  /** the names of the migrations the backed-up database had run */
  migrations: z.array(z.string().min(1)),
  /** disk: the images are the uploads/ entries; database: they are rows of the database itself */
  imageStore: z.enum(["disk", "database"]),
  files: z.array(FileSchema),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/**
 * A restore (or a backup) refused for a reason the operator can act on: its message is one line
 * for them, `exitCode` what `npm run restore` exits with (docs/operations.md, Backups).
 */
export class BackupRefusal extends Error {
  override name = "BackupRefusal";
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** A file that is not a backup of this shop, or is damaged or incomplete: the message says what is wrong with it. */
export class DamagedBackup extends BackupRefusal {
  override name = "DamagedBackup";
  constructor(reason: string) {
    super(reason, 5);
  }
}

async function sha256Of(file: string): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash("sha256");
  let size = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { size, sha256: hash.digest("hex") };
}

/**
 * Writes the backup file `target`: the manifest, then each entry from its file. It is written
 * under a hidden temporary name in the same folder, flushed to disk, then renamed: a file under a
 * backup's name is always whole (a crash or a full disk leaves only the temporary file).
 */
export async function writeArchive(
  target: string,
  manifest: Omit<Manifest, "files">,
  entries: readonly { name: string; file: string }[],
): Promise<{ bytes: number }> {
  const files = [];
  for (const entry of entries) files.push({ name: entry.name, ...(await sha256Of(entry.file)) });
  const complete: Manifest = ManifestSchema.parse({ ...manifest, files });
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.${crypto.randomBytes(4).toString("hex")}.partial`);
  const pack = tar.pack();
  const written = pipeline(pack, fs.createWriteStream(partial, { flags: "wx", mode: 0o600 }));
  try {
    const mtime = new Date(manifest.createdAt);
    const adding = (async () => {
      pack.entry({ name: MANIFEST, mtime, mode: 0o600 }, Buffer.from(JSON.stringify(complete, null, 2)));
      for (const [i, entry] of entries.entries()) {
        const into = pack.entry({ name: entry.name, size: files[i]!.size, mtime, mode: 0o600 });
        await pipeline(fs.createReadStream(entry.file), into);
      }
      pack.finalize();
    })();
    await Promise.all([adding, written]);
    const handle = await fsp.open(partial, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(partial, target);
    return { bytes: (await fsp.stat(target)).size };
  } catch (error) {
    pack.destroy();
    await fsp.rm(partial, { force: true });
    throw error;
  }
}

const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

async function readAll(stream: AsyncIterable<Buffer>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > limit) throw new DamagedBackup("its manifest is too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Unpacks the backup `file` into the empty folder `into`, checking it as it goes: `accept(manifest)`
 * runs before anything else is unpacked (it throws to refuse the backup); each entry must be one
 * the manifest lists, once, with its size and sha256; every listed entry must be there. Answers
 * the manifest and where each entry was unpacked. A file that fails any check is a DamagedBackup.
 */
export async function readArchive(
  file: string,
  into: string,
  accept: (manifest: Manifest) => void | Promise<void>,
): Promise<{ manifest: Manifest; paths: Map<string, string> }> {
  const extract = tar.extract();
  const source = fs.createReadStream(file);
  const feeding = pipeline(source, extract).catch((error: unknown) => {
    throw error instanceof DamagedBackup ? error : new DamagedBackup(`it cannot be read as a backup (${tarReason(error)})`);
  });
  // The iteration below reports the failure; this only keeps it from going unhandled meanwhile.
  feeding.catch(() => {});
  let manifest: Manifest | null = null;
  const paths = new Map<string, string>();
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      if (!manifest) {
        if (name !== MANIFEST || type !== "file") throw new DamagedBackup(`it does not start with ${MANIFEST}: not a backup of this shop`);
        let parsed: unknown;
        try {
          parsed = JSON.parse((await readAll(entry as AsyncIterable<Buffer>, MAX_MANIFEST_BYTES)).toString("utf8"));
        } catch (error) {
          throw error instanceof DamagedBackup ? error : new DamagedBackup(`its ${MANIFEST} is not JSON`);
        }
        const result = ManifestSchema.safeParse(parsed);
        if (!result.success) throw new DamagedBackup(`its ${MANIFEST} is not one this version reads (${result.error.issues[0]?.message})`);
        manifest = result.data;
        await accept(manifest);
        continue;
      }
      const listed = manifest.files.find((f) => f.name === name);
      if (!listed || type !== "file") throw new DamagedBackup(`it holds ${JSON.stringify(name)}, which its manifest does not list`);
      if (paths.has(name)) throw new DamagedBackup(`it holds ${name} twice`);
      const target = path.join(into, name);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const hash = crypto.createHash("sha256");
      let size = 0;
      const out = fs.createWriteStream(target, { flags: "wx", mode: 0o600 });
      try {
        for await (const chunk of entry as AsyncIterable<Buffer>) {
          hash.update(chunk);
          size += chunk.byteLength;
          if (size > listed.size) throw new DamagedBackup(`its ${name} is longer than its manifest says`);
          if (!out.write(chunk)) await once(out, "drain");
        }
      } finally {
        out.end();
        await finished(out);
      }
      if (size !== listed.size || hash.digest("hex") !== listed.sha256) throw new DamagedBackup(`its ${name} does not match its checksum`);
      paths.set(name, target);
    }
    await feeding;
  } catch (error) {
    source.destroy();
    extract.destroy();
    if (error instanceof BackupRefusal || !isTarError(error)) throw error;
    throw new DamagedBackup(`it cannot be read as a backup (${tarReason(error)})`);
  }
  if (!manifest) throw new DamagedBackup("it is empty");
  const missing = manifest.files.filter((f) => !paths.has(f.name)).map((f) => f.name);
  if (missing.length)
    throw new DamagedBackup(
      `it ends before ${missing[0]}${missing.length > 1 ? ` and ${missing.length - 1} more entries` : ""}: it is incomplete`,
    );
  return { manifest, paths };
}

/** Errors tar-stream raises for what it reads (a truncated or foreign file), not the system's (a full disk). */
function isTarError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return !(typeof code === "string" && /^E[A-Z]+$/.test(code));
}

function tarReason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
