// Uploaded product and category images: checked by their bytes (never by name or claimed type),
// stored under DATA_DIR/uploads with a random name, served by app/routes/uploads.$.ts.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { env } from "./env.server";
import { AppError } from "./errors.server";
import { MAX_UPLOAD_BYTES } from "./request-rules.mjs";

export { MAX_UPLOAD_BYTES };

const TOO_LARGE = "The image must be 2 MB or smaller";
const WRONG_TYPE = "Please choose a JPEG, PNG or WebP image";

/** The only names an upload can have: what imageFromForm generates. */
const UPLOAD_NAME = /^[a-f0-9]{32}\.(jpg|png|webp)$/;

const TYPES = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" } as const;
type Ext = keyof typeof TYPES;

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image format from its first bytes, or null for anything that is not a JPEG, PNG or WebP. */
function sniff(bytes: Uint8Array): Ext | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  return null;
}

export function uploadsDir(): string {
  return path.join(env.DATA_DIR, "uploads");
}

/** Was a file chosen in `field` (a browser sends an empty, nameless part when none was)? */
export function fileChosen(form: FormData, field = "imageFile"): boolean {
  const file = form.get(field);
  return file !== null && typeof file !== "string" && (file.size > 0 || file.name !== "");
}

/**
 * A form's image: the path an uploaded file is stored under, else the URL typed in. The form
 * is validated first (`parse`, given a stand-in path when a file was chosen), so a form that
 * fails keeps no file on disk.
 */
export async function withImage<T extends { imgPath: string }>(
  form: FormData,
  parse: (imgPath: unknown) => T,
  field = "imageFile",
): Promise<T> {
  const chosen = fileChosen(form, field);
  const input = parse(chosen ? "/uploads/pending" : form.get("imgPath"));
  if (!chosen) return input;
  const stored = await imageFromForm(form, field);
  return { ...input, imgPath: stored ?? input.imgPath };
}

/**
 * The image file chosen in `field` of an admin form, checked and stored under the data folder:
 * its public path (/uploads/…), or null when no file was chosen. A file that is not a JPEG, PNG
 * or WebP image (415), or is larger than MAX_UPLOAD_BYTES (413), is refused with a field
 * message on `field`.
 */
export async function imageFromForm(form: FormData, field = "imageFile"): Promise<string | null> {
  const file = form.get(field);
  if (file === null || typeof file === "string" || !fileChosen(form, field)) return null;
  if (file.size > MAX_UPLOAD_BYTES) throw new AppError(413, TOO_LARGE, { [field]: TOO_LARGE });
  const bytes = new Uint8Array(await file.arrayBuffer());
  // Checked again on the bytes read, in case the size a File reports is not the size it holds.
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new AppError(413, TOO_LARGE, { [field]: TOO_LARGE });
  const ext = sniff(bytes);
  if (!ext) throw new AppError(415, WRONG_TYPE, { [field]: WRONG_TYPE });
  const dir = uploadsDir();
  await fs.mkdir(dir, { recursive: true });
  const name = `${crypto.randomBytes(16).toString("hex")}.${ext}`;
  await fs.writeFile(path.join(dir, name), bytes, { flag: "wx", mode: 0o644 });
  return `/uploads/${name}`;
}

/** A stored upload by its name (only names imageFromForm makes), or null. */
export async function readUpload(name: string): Promise<{ body: Buffer; type: string } | null> {
  const match = UPLOAD_NAME.exec(name);
  if (!match) return null;
  try {
    const body = await fs.readFile(path.join(uploadsDir(), name));
    // Served only as what its bytes are: a file put there by other means is not an image.
    if (sniff(body) !== match[1]) return null;
    return { body, type: TYPES[match[1] as Ext] };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return null;
    throw error;
  }
}

/**
 * Delete an uploaded file by its public path (/uploads/…), once nothing shows it any more.
 * Anything that is not one of our uploads is left alone; a file already gone is fine.
 */
export async function removeUpload(publicPath: string): Promise<boolean> {
  const name = publicPath.startsWith("/uploads/") ? publicPath.slice("/uploads/".length) : "";
  if (!UPLOAD_NAME.test(name)) return false;
  try {
    await fs.unlink(path.join(uploadsDir(), name));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
