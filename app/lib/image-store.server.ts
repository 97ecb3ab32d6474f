// Where uploaded product and category images live (ADR 0020): one interface, two stores.
// - disk: files under DATA_DIR/uploads, as the shop always kept them; the default on SQLite (one server).
// - database: the `uploads` table (migration 0024), so every app server on one PostgreSQL serves every
//   image; the default on PostgreSQL, and the only store allowed there (no state on a server's disk).
// IMAGE_STORE picks one explicitly. Names are the random ones app/lib/uploads.server.ts makes
// (`{32 hex}.{jpg|png|webp}`), and a product photo's renditions (app/lib/photos.server.ts:
// `{32 hex}-{width}.{avif|webp}`), never reused: a stored image never changes.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Db } from "./db.server";
import { db, isPostgres, isPostgresUrl, nowIso } from "./db.server";
import { env } from "./env.server";

/** The formats a staff member may upload (sniffImage): what a browser sends from a camera or an editor. */
export const IMAGE_TYPES = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" } as const;
export type ImageExt = keyof typeof IMAGE_TYPES;

/** Every format the store keeps: the uploads, and the AVIF renditions the shop makes of a photo. */
export const STORED_TYPES = { ...IMAGE_TYPES, avif: "image/avif" } as const;
export type StoredExt = keyof typeof STORED_TYPES;

/**
 * The only names a stored image can have: an upload `{32 hex}.{jpg|png|webp}`, or a rendition of
 * a photo `{32 hex}-{width}.{avif|webp}` (a width of 2 to 4 digits, no leading zero).
 */
const UPLOAD_NAME = /^[a-f0-9]{32}(?:\.(jpg|png|webp)|-[1-9][0-9]{1,3}\.(avif|webp))$/;

/** The extension of a well-formed stored image's name, or null for any other string. */
export function uploadNameExt(name: string): StoredExt | null {
  const match = UPLOAD_NAME.exec(name);
  return match ? ((match[1] ?? match[2]) as StoredExt) : null;
}

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image format from its first bytes, or null for anything that is not a JPEG, PNG or WebP. */
export function sniffImage(bytes: Uint8Array): ImageExt | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  return null;
}

/** The format of bytes the store keeps: an upload's (sniffImage), or an AVIF (an ISO-BMFF `ftyp` box of brand avif). */
export function sniffStored(bytes: Uint8Array): StoredExt | null {
  const upload = sniffImage(bytes);
  if (upload) return upload;
  if (startsWith(bytes, ascii("ftyp"), 4) && (startsWith(bytes, ascii("avif"), 8) || startsWith(bytes, ascii("avis"), 8))) return "avif";
  return null;
}

/** A strong ETag for these bytes (quoted): the base64url sha256, the same in every store. */
export function imageEtag(bytes: Uint8Array): string {
  return `"${crypto.createHash("sha256").update(bytes).digest("base64url")}"`;
}

/** What a conditional request needs, without the bytes. */
export interface ImageInfo {
  type: string;
  etag: string;
  size: number;
}

export interface StoredImage extends ImageInfo {
  bytes: Buffer;
}

export interface ImageStore {
  readonly kind: ImageStoreKind;
  /**
   * Store a new image under a new name; refuses a malformed name, bytes that are not what the name
   * says, or a name taken by other bytes. The database store writes through `trx` when given (the
   * transaction of the row that shows the image: both commit or neither); the disk store writes at
   * once, and again the same bytes under the same name is fine (a transaction retried).
   */
  put(name: string, type: string, bytes: Uint8Array, trx?: Db): Promise<void>;
  /** The image, or null for an unknown or malformed name (a malformed one is never looked up). */
  get(name: string): Promise<StoredImage | null>;
  /** Its type, ETag and size, or null (as get). */
  info(name: string): Promise<ImageInfo | null>;
  /**
   * Inside a transaction: is the image there? The database store also locks its row until the
   * transaction ends (PostgreSQL; SQLite has one writer): "share" for a write that makes a row show
   * it, "update" before deciding to delete it, so one of the two always sees the other's outcome.
   */
  hold(name: string, trx: Db, mode: "share" | "update"): Promise<boolean>;
  /** Delete it (the database store through `trx` when given); false when there was nothing to delete. */
  delete(name: string, trx?: Db): Promise<boolean>;
}

/** The checks every put makes, whatever the store: only what uploads.server.ts would make. */
function checkPut(name: string, type: string, bytes: Uint8Array): void {
  const ext = uploadNameExt(name);
  if (!ext) throw new Error(`not an upload name: ${JSON.stringify(name)}`);
  if (sniffStored(bytes) !== ext || STORED_TYPES[ext] !== type) throw new Error(`the bytes of ${name} are not a ${type} image`);
}

/** Files in a folder (DATA_DIR/uploads): the single SQLite server's store. */
export class DiskImageStore implements ImageStore {
  readonly kind = "disk" as const;
  constructor(readonly dir: string) {}

  async put(name: string, type: string, bytes: Uint8Array): Promise<void> {
    checkPut(name, type, bytes);
    await fs.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, name);
    try {
      await fs.writeFile(file, bytes, { flag: "wx", mode: 0o644 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && Buffer.from(bytes).equals(await fs.readFile(file))) return;
      throw error;
    }
  }

  async get(name: string): Promise<StoredImage | null> {
    const ext = uploadNameExt(name);
    if (!ext) return null;
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(path.join(this.dir, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return null;
      throw error;
    }
    // Served only as what its bytes are: a file put there by other means is not an image.
    if (sniffStored(bytes) !== ext) return null;
    return { bytes, type: STORED_TYPES[ext], etag: imageEtag(bytes), size: bytes.byteLength };
  }

  async info(name: string): Promise<ImageInfo | null> {
    const image = await this.get(name);
    return image && { type: image.type, etag: image.etag, size: image.size };
  }

  async hold(name: string): Promise<boolean> {
    if (!uploadNameExt(name)) return false;
    try {
      await fs.access(path.join(this.dir, name));
      return true;
    } catch {
      return false;
    }
  }

  async delete(name: string): Promise<boolean> {
    if (!uploadNameExt(name)) return false;
    try {
      await fs.unlink(path.join(this.dir, name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }
}

/** How many bytes of recently served images one server keeps in memory (DatabaseImageStore.get). */
export const RECENT_IMAGE_BYTES = 32 * 1024 * 1024;

/**
 * Rows of the `uploads` table: every app server on the database serves every image.
 * Recently served bytes are kept in this process (least recently served dropped first, at most
 * `recentBytes`), so a popular image is not read out of the database on every request: a 2 MB
 * bytea read ties up one of the pool's connections that pages need. Each request still asks the
 * database whether the image exists and which ETag it has (small columns only), so an image deleted
 * through any server stops being served by every server at once, and bytes are only ever served
 * under the ETag the database gives (names are never reused: a stored image never changes).
 */
export class DatabaseImageStore implements ImageStore {
  readonly kind = "database" as const;
  private readonly recent = new Map<string, StoredImage>();
  private recentTotal = 0;
  constructor(
    readonly db: Db,
    readonly recentBytes = RECENT_IMAGE_BYTES,
  ) {}

  private recall(name: string, etag: string): StoredImage | null {
    const hit = this.recent.get(name);
    if (!hit || hit.etag !== etag) return null;
    this.recent.delete(name);
    this.recent.set(name, hit);
    return hit;
  }

  private remember(name: string, image: StoredImage): void {
    if (image.size > this.recentBytes) return;
    const old = this.recent.get(name);
    if (old) {
      this.recent.delete(name);
      this.recentTotal -= old.size;
    }
    this.recent.set(name, image);
    this.recentTotal += image.size;
    for (const [oldest, dropped] of this.recent) {
      if (this.recentTotal <= this.recentBytes) break;
      this.recent.delete(oldest);
      this.recentTotal -= dropped.size;
    }
  }

  async put(name: string, type: string, bytes: Uint8Array, trx: Db = this.db): Promise<void> {
    checkPut(name, type, bytes);
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await trx
      .insertInto("uploads")
      .values({ name, contentType: type, bytes: buffer, size: buffer.byteLength, etag: imageEtag(buffer), createdAt: nowIso() })
      .execute();
  }

  async get(name: string): Promise<StoredImage | null> {
    const info = await this.info(name);
    if (!info) return null;
    const known = this.recall(name, info.etag);
    if (known) return known;
    const row = await this.db
      .selectFrom("uploads")
      .select(["contentType", "bytes", "etag", "size"])
      .where("name", "=", name)
      .executeTakeFirst();
    if (!row) return null;
    // Both drivers hand bytea/BLOB over as a Buffer already: no copy.
    const image = {
      bytes: Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes),
      type: row.contentType,
      etag: row.etag,
      size: row.size,
    };
    this.remember(name, image);
    return image;
  }

  async info(name: string): Promise<ImageInfo | null> {
    if (!uploadNameExt(name)) return null;
    const row = await this.db.selectFrom("uploads").select(["contentType", "etag", "size"]).where("name", "=", name).executeTakeFirst();
    return row ? { type: row.contentType, etag: row.etag, size: row.size } : null;
  }

  async hold(name: string, trx: Db, mode: "share" | "update"): Promise<boolean> {
    if (!uploadNameExt(name)) return false;
    const query = trx.selectFrom("uploads").select("name").where("name", "=", name);
    const locked = !isPostgres(trx) ? query : mode === "share" ? query.forShare() : query.forUpdate();
    return (await locked.executeTakeFirst()) !== undefined;
  }

  async delete(name: string, trx: Db = this.db): Promise<boolean> {
    if (!uploadNameExt(name)) return false;
    const result = await trx.deleteFrom("uploads").where("name", "=", name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

export type ImageStoreKind = "disk" | "database";

export const DISK_STORE_ON_POSTGRES =
  "IMAGE_STORE=disk is refused on PostgreSQL: several app servers share the database, and an image on one server's disk " +
  "would be missing on the others. Leave IMAGE_STORE unset (or set it to database) to keep images in the database.";

/** Which store a setting and a database URL make: unset is disk on SQLite, database on PostgreSQL (disk there is refused). */
export function imageStoreKind(setting: ImageStoreKind | undefined, databaseUrl: string): ImageStoreKind {
  const postgres = isPostgresUrl(databaseUrl);
  if (setting === "disk" && postgres) throw new Error(`Invalid environment: ${DISK_STORE_ON_POSTGRES}`);
  return setting ?? (postgres ? "database" : "disk");
}

/** The folder of the disk store. */
export function uploadsDir(): string {
  return path.join(env.DATA_DIR, "uploads");
}

export function createImageStore(kind: ImageStoreKind, database: Db = db): ImageStore {
  return kind === "database" ? new DatabaseImageStore(database) : new DiskImageStore(uploadsDir());
}

/** The process's store, chosen at boot (a server started with IMAGE_STORE=disk on PostgreSQL fails here, with the reason). */
export const imageStore: ImageStore = createImageStore(imageStoreKind(env.IMAGE_STORE, env.DATABASE_URL));
