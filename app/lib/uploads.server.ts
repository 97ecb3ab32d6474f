// Uploaded product and category images: checked by their bytes (never by name or claimed type),
// given a random name, and kept in the image store (app/lib/image-store.server.ts: DATA_DIR/uploads
// on a single SQLite server, the database on PostgreSQL); served by app/routes/uploads.$.ts.
import crypto from "node:crypto";
import type { Db } from "./db.server";
import { AppError } from "./errors.server";
import type { ImageStore } from "./image-store.server";
import { IMAGE_TYPES, imageStore, sniffImage, uploadNameExt } from "./image-store.server";
import { MAX_UPLOAD_BYTES } from "./request-rules";
import { errorMessage, log } from "./log.server";

export { MAX_UPLOAD_BYTES };

const TOO_LARGE = "The image must be 2 MB or smaller";
const WRONG_TYPE = "Please choose a JPEG, PNG or WebP image";

/** Was a file chosen in `field` (a browser sends an empty, nameless part when none was)? */
export function fileChosen(form: FormData, field = "imageFile"): boolean {
  const file = form.get(field);
  return file !== null && typeof file !== "string" && (file.size > 0 || file.name !== "");
}

/** An uploaded image checked and named, not stored yet: its row's transaction stores it (putUpload). */
export interface PendingUpload {
  name: string;
  type: string;
  bytes: Uint8Array;
  /** its public path, /uploads/{name} */
  path: string;
}

/**
 * A form's image: the path an uploaded file will be stored under (with the checked file as
 * `upload`, for the model to store in the transaction that writes the row: putUpload), else the
 * URL typed in. The form is validated first (`parse`, given a stand-in path when a file was
 * chosen), so a form that fails never reads the file.
 */
export async function withImage<T extends { imgPath: string }>(
  form: FormData,
  parse: (imgPath: unknown) => T,
  field = "imageFile",
): Promise<T & { upload: PendingUpload | null }> {
  const chosen = fileChosen(form, field);
  const input = parse(chosen ? "/uploads/pending" : form.get("imgPath"));
  const upload = chosen ? await checkedUpload(form, field) : null;
  return { ...input, imgPath: upload?.path ?? input.imgPath, upload };
}

/**
 * The image file chosen in `field` of an admin form, checked and given a new random name, or null
 * when no file was chosen. A file that is not a JPEG, PNG or WebP image (415), or is larger than
 * MAX_UPLOAD_BYTES (413), is refused with a field message on `field`.
 */
export async function checkedUpload(form: FormData, field = "imageFile"): Promise<PendingUpload | null> {
  const file = form.get(field);
  if (file === null || typeof file === "string" || !fileChosen(form, field)) return null;
  if (file.size > MAX_UPLOAD_BYTES) throw new AppError(413, TOO_LARGE, { fieldErrors: { [field]: TOO_LARGE } });
  const bytes = new Uint8Array(await file.arrayBuffer());
  // Checked again on the bytes read, in case the size a File reports is not the size it holds.
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new AppError(413, TOO_LARGE, { fieldErrors: { [field]: TOO_LARGE } });
  const ext = sniffImage(bytes);
  if (!ext) throw new AppError(415, WRONG_TYPE, { fieldErrors: { [field]: WRONG_TYPE } });
  const name = `${crypto.randomBytes(16).toString("hex")}.${ext}`;
  return { name, type: IMAGE_TYPES[ext], bytes, path: `/uploads/${name}` };
}

/**
 * Store a form's upload (withImage) inside the transaction that writes the row showing it: on the
 * database store both commit or neither; the disk store writes the file before the row commits (a
 * row whose write fails leaves the file, which the model deletes: nothing shows it). Either way no
 * row ever points at an image that is not there.
 */
export async function putUpload(trx: Db, upload: PendingUpload | null | undefined, store: ImageStore = imageStore): Promise<void> {
  if (upload) await store.put(upload.name, upload.type, upload.bytes, trx);
}

/** The image chosen in `field`, checked and stored at once: its public path (/uploads/…), or null when no file was chosen. */
export async function imageFromForm(form: FormData, field = "imageFile", store: ImageStore = imageStore): Promise<string | null> {
  const upload = await checkedUpload(form, field);
  if (!upload) return null;
  await store.put(upload.name, upload.type, upload.bytes);
  return upload.path;
}

/** A stored upload by its name (only names imageFromForm makes), or null. */
export async function readUpload(name: string, store: ImageStore = imageStore): Promise<{ body: Buffer; type: string } | null> {
  const image = await store.get(name);
  return image && { body: image.bytes, type: image.type };
}

/** The upload name of a public path (/uploads/{name}), or null for any other path. */
function uploadName(publicPath: string): string | null {
  const name = publicPath.startsWith("/uploads/") ? publicPath.slice("/uploads/".length) : "";
  return uploadNameExt(name) ? name : null;
}

export const UPLOAD_GONE = "That uploaded image no longer exists. Choose the image again.";

/**
 * Inside the transaction of a write that makes a row show `imgPath` (after putUpload, when the
 * write stores its own): an upload it names must still be there (400 on the field otherwise), and
 * stays until the write commits (its row locked FOR SHARE on PostgreSQL), so removeUnusedUpload
 * either sees this row or deletes first and this write is refused.
 */
export async function holdUpload(trx: Db, imgPath: string, store: ImageStore = imageStore): Promise<void> {
  const name = uploadName(imgPath);
  if (!name) return;
  if (!(await store.hold(name, trx, "share"))) throw new AppError(400, UPLOAD_GONE, { fieldErrors: { imgPath: UPLOAD_GONE } });
}

/**
 * Delete an uploaded image by its public path (/uploads/…), once nothing shows it any more.
 * Anything that is not one of our uploads is left alone; an image already gone is fine.
 */
export async function removeUpload(publicPath: string, store: ImageStore = imageStore): Promise<boolean> {
  const name = uploadName(publicPath);
  return name ? store.delete(name) : false;
}

/**
 * In one transaction: the upload at `publicPath` is deleted if `stillShown` (asked under the
 * upload's lock, FOR UPDATE on PostgreSQL; SQLite has one writer) finds nothing showing it. A
 * write pointing a row at it meanwhile holds the same row (holdUpload): it either committed
 * before, and `stillShown` sees its row, or waits and is refused. True when it was deleted.
 */
export async function removeUnusedUpload(
  db: Db,
  publicPath: string,
  stillShown: (trx: Db) => Promise<boolean>,
  store: ImageStore = imageStore,
): Promise<boolean> {
  const name = uploadName(publicPath);
  if (!name) return false;
  return db.transaction().execute(async (trx) => {
    if (!(await store.hold(name, trx, "update")) || (await stillShown(trx))) return false;
    return store.delete(name, trx);
  });
}

/** Names are random and never reused: an image at a URL never changes. */
const IMMUTABLE = "public, max-age=31536000, immutable";

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });

/** Does If-None-Match name this ETag (`*`, or a list; weak comparison, as RFC 9110 asks of this header)? */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}

/**
 * The answer to GET or HEAD /uploads/{name}: the image with its type, a year's caching and its
 * strong ETag; 304 when If-None-Match names it; 404 for a name never stored or not an upload
 * name (which is never looked up). A store that fails answers a plain 500 (the reason is logged).
 */
export async function uploadResponse(request: Request, name: string, store: ImageStore = imageStore): Promise<Response> {
  if (!uploadNameExt(name)) return notFound();
  try {
    const ifNoneMatch = request.headers.get("If-None-Match");
    // A conditional request or a HEAD needs no bytes: the database store reads only the row's small columns.
    const info = ifNoneMatch !== null || request.method === "HEAD" ? await store.info(name) : null;
    const image = info ? null : await store.get(name);
    const found = info ?? image;
    if (!found) return notFound();
    const headers = new Headers({
      "Cache-Control": IMMUTABLE,
      ETag: found.etag,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
    if (etagMatches(ifNoneMatch, found.etag)) return new Response(null, { status: 304, headers });
    headers.set("Content-Type", found.type);
    headers.set("Content-Length", String(found.size));
    if (request.method === "HEAD") return new Response(null, { status: 200, headers });
    const bytes = image ?? (await store.get(name));
    // Deleted between the two reads (its row no longer shows it).
    if (!bytes) return notFound();
    return new Response(bytes.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
  } catch (error) {
    log.error(`/uploads/${name} could not be read: ${errorMessage(error)}`);
    return new Response("The image could not be read. Try again.", {
      status: 500,
      headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" },
    });
  }
}
