// Product photos made once, when a staff member uploads one (docs/decisions/0035): the file is
// checked by its bytes (a JPEG, PNG or WebP, at most MAX_PHOTO_BYTES and MAX_PHOTO_PIXELS), turned
// upright by its EXIF orientation, stripped of its metadata (a phone's GPS position among it), kept
// as the original, and resized to every width of app/utils/photos.ts in AVIF and WebP. All of it
// happens here, before any transaction begins; the model then stores the files (the image store's
// put, inside the transaction that writes the photo's row) and pages only ever read what is stored.
import crypto from "node:crypto";
import type { OutputInfo, Sharp } from "sharp";
import sharp from "sharp";
import { AppError } from "./errors.server";
import { IMAGE_TYPES, sniffImage, STORED_TYPES } from "./image-store.server";
import { MAX_PHOTO_BYTES, MAX_PHOTOS_PER_POST } from "./request-rules";
import { photoWidths, RENDITION_FORMATS } from "~/utils/photos";

export { MAX_PHOTO_BYTES, MAX_PHOTOS_PER_POST };

/** The most pixels a photo may have (a decompression bomb has far more, in a small file). */
export const MAX_PHOTO_PIXELS = 40_000_000;
/** The smallest photo worth showing: as wide as the narrowest rendition, and this tall. */
export const MIN_PHOTO_WIDTH = 160;
export const MIN_PHOTO_HEIGHT = 100;

export const PHOTO_TOO_LARGE = `Each photo must be ${MAX_PHOTO_BYTES / 1024 / 1024} MB or smaller`;
export const PHOTO_WRONG_TYPE = "Please choose JPEG, PNG or WebP photos";
export const PHOTO_TOO_MANY_PIXELS = `Each photo must have at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels`;
export const PHOTO_DAMAGED = "A photo could not be read: the file is damaged or empty";
export const PHOTO_TOO_SMALL = `Each photo must be at least ${MIN_PHOTO_WIDTH} pixels wide and ${MIN_PHOTO_HEIGHT} pixels tall`;

/** One file for the image store. */
export interface PhotoFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** A photo ready to store: its files (the original first, then the renditions) and what its row records. */
export interface PreparedPhoto {
  base: string;
  originalName: string;
  width: number;
  height: number;
  widths: number[];
  files: PhotoFile[];
}

const refuse = (status: 400 | 413 | 415, message: string, field: string) =>
  new AppError(status, message, { fieldErrors: { [field]: message } });

/** How each format's original is written again (upright, without metadata): close to the file sent. */
function encodeOriginal(image: Sharp, ext: keyof typeof IMAGE_TYPES): Sharp {
  if (ext === "jpg") return image.jpeg({ quality: 90, mozjpeg: true });
  if (ext === "png") return image.png({ compressionLevel: 9 });
  return image.webp({ quality: 90 });
}

/** The encoder of each rendition format: quality for photos of furniture, speed for a staff member waiting. */
function encodeRendition(image: Sharp, format: (typeof RENDITION_FORMATS)[number]): Sharp {
  return format === "avif" ? image.avif({ quality: 55, effort: 2 }) : image.webp({ quality: 78 });
}

const isPixelLimit = (error: unknown) => error instanceof Error && /pixel limit/i.test(error.message);

// One photo at a time in this process: resizing is the heaviest work the shop does, and pages
// must keep being served beside it on a small machine.
let turn: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const next = turn.then(work, work);
  turn = next.catch(() => undefined);
  return next;
}

/**
 * Check and process one uploaded photo (`field` names the form field for a refusal's message):
 * 413 too large, 415 not a JPEG, PNG or WebP, 413 too many pixels, 400 damaged, empty or too small.
 * Nothing is stored here; a refusal leaves nothing anywhere.
 */
export async function preparePhoto(bytes: Uint8Array, field = "photos"): Promise<PreparedPhoto> {
  if (bytes.byteLength > MAX_PHOTO_BYTES) throw refuse(413, PHOTO_TOO_LARGE, field);
  const ext = sniffImage(bytes);
  if (!ext) throw refuse(415, PHOTO_WRONG_TYPE, field);
  return oneAtATime(async () => {
    const options = { limitInputPixels: MAX_PHOTO_PIXELS, failOn: "error" } as const;
    let original: { data: Buffer; info: OutputInfo };
    try {
      const meta = await sharp(bytes, options).metadata();
      if (!meta.width || !meta.height) throw refuse(400, PHOTO_DAMAGED, field);
      if (meta.width * meta.height > MAX_PHOTO_PIXELS) throw refuse(413, PHOTO_TOO_MANY_PIXELS, field);
      // Upright by its EXIF orientation; sharp writes no metadata unless asked to.
      original = await encodeOriginal(sharp(bytes, options).autoOrient(), ext).toBuffer({ resolveWithObject: true });
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw isPixelLimit(error) ? refuse(413, PHOTO_TOO_MANY_PIXELS, field) : refuse(400, PHOTO_DAMAGED, field);
    }
    const { width, height } = original.info;
    if (width < MIN_PHOTO_WIDTH || height < MIN_PHOTO_HEIGHT) throw refuse(400, PHOTO_TOO_SMALL, field);
    const base = crypto.randomBytes(16).toString("hex");
    const originalName = `${base}.${ext}`;
    const files: PhotoFile[] = [{ name: originalName, type: IMAGE_TYPES[ext], bytes: original.data }];
    const widths = photoWidths(width);
    for (const w of widths) {
      for (const format of RENDITION_FORMATS) {
        const resized = sharp(original.data, options).resize({ width: w, withoutEnlargement: true });
        files.push({
          name: `${base}-${w}.${format}`,
          type: STORED_TYPES[format],
          bytes: await encodeRendition(resized, format).toBuffer(),
        });
      }
    }
    return { base, originalName, width, height, widths, files };
  });
}

/** Was at least one file chosen in `field` (a browser sends an empty, nameless part when none was)? */
export function chosenFiles(form: FormData, field = "photos"): File[] {
  return form.getAll(field).filter((v): v is File => typeof v !== "string" && (v.size > 0 || v.name !== ""));
}

export const CHOOSE_PHOTOS = "Choose at least one photo";
export const TOO_MANY_PHOTOS = `Choose at most ${MAX_PHOTOS_PER_POST} photos at a time`;

/**
 * Every photo chosen in `field`, each checked and processed (preparePhoto), or the first refusal:
 * 400 when none or more than MAX_PHOTOS_PER_POST were chosen.
 */
export async function preparePhotos(form: FormData, field = "photos"): Promise<PreparedPhoto[]> {
  const files = chosenFiles(form, field);
  if (files.length === 0) throw refuse(400, CHOOSE_PHOTOS, field);
  if (files.length > MAX_PHOTOS_PER_POST) throw refuse(400, TOO_MANY_PHOTOS, field);
  // The declared sizes first, so no file is read when one is too large.
  if (files.some((f) => f.size > MAX_PHOTO_BYTES)) throw refuse(413, PHOTO_TOO_LARGE, field);
  const prepared: PreparedPhoto[] = [];
  for (const file of files) prepared.push(await preparePhoto(new Uint8Array(await file.arrayBuffer()), field));
  return prepared;
}
