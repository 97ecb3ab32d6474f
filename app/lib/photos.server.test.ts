// Product photo processing (app/lib/photos.server.ts): the renditions made (widths, formats, the
// aspect kept, never wider than the original), the original turned upright and stripped of its
// metadata, and every kind of bad file refused with its status and field message.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError } from "./errors.server";
import { sniffStored, uploadNameExt } from "./image-store.server";
import { bodyLimitFor, MAX_ADMIN_BODY_BYTES, MAX_PHOTOS_BODY_BYTES } from "./request-rules";
import {
  MAX_PHOTO_BYTES,
  PHOTO_DAMAGED,
  PHOTO_TOO_LARGE,
  PHOTO_TOO_MANY_PIXELS,
  PHOTO_TOO_SMALL,
  PHOTO_WRONG_TYPE,
  preparePhoto,
  preparePhotos,
  TOO_MANY_PHOTOS,
} from "./photos.server";
import { photoWidths } from "~/utils/photos";

/** A JPEG of two colours side by side (left red, right blue), with an EXIF orientation when given. */
async function jpeg(width: number, height: number, orientation?: number): Promise<Buffer> {
  const half = Math.floor(width / 2);
  const left = await sharp({ create: { width: half, height, channels: 3, background: "#c00000" } })
    .png()
    .toBuffer();
  const image = sharp({ create: { width, height, channels: 3, background: "#0000c0" } }).composite([{ input: left, left: 0, top: 0 }]);
  const withExif = orientation ? image.withMetadata({ orientation, exif: { IFD0: { Copyright: "someone" } } }) : image;
  return withExif.jpeg().toBuffer();
}

/** CRC-32 of PNG chunks (to write a header that claims another size). */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A small real PNG whose header claims `width` × `height` pixels (a decompression bomb's shape, or 0×0). */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: "#888" } })
      .png()
      .toBuffer(),
  );
  // The IHDR chunk: length (4) at 8, "IHDR" at 12, width at 16, height at 20, its CRC after 13 bytes of data at 29.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("photo renditions", () => {
  it("resizes a large photo to every width, in AVIF and WebP, keeping its aspect", async () => {
    const photo = await preparePhoto(await jpeg(2000, 1500));
    expect(photo.widths).toEqual([160, 320, 640, 960, 1440]);
    expect(photo.originalName).toBe(`${photo.base}.jpg`);
    expect(photo.files.map((f) => f.name)).toEqual([
      `${photo.base}.jpg`,
      ...[160, 320, 640, 960, 1440].flatMap((w) => [`${photo.base}-${w}.avif`, `${photo.base}-${w}.webp`]),
    ]);
    for (const file of photo.files.slice(1)) {
      const ext = uploadNameExt(file.name);
      expect(sniffStored(file.bytes)).toBe(ext);
      expect(file.type).toBe(ext === "avif" ? "image/avif" : "image/webp");
      const meta = await sharp(file.bytes).metadata();
      const width = Number(/-(\d+)\./.exec(file.name)![1]);
      expect(meta.width).toBe(width);
      expect(meta.height).toBe(Math.round((width * 1500) / 2000));
    }
  });

  it("never makes a rendition wider than the original: a narrow photo's widest is its own width", async () => {
    const photo = await preparePhoto(await jpeg(500, 400));
    expect(photo.widths).toEqual([160, 320, 500]);
    expect(photoWidths(1440)).toEqual([160, 320, 640, 960, 1440]);
    const widest = photo.files.find((f) => f.name.endsWith("-500.webp"))!;
    expect((await sharp(widest.bytes).metadata()).width).toBe(500);
    expect(photo.files.some((f) => /-(640|960|1440)\./.test(f.name))).toBe(false);
  });

  it("turns the photo upright by its EXIF orientation and keeps no metadata", async () => {
    // Orientation 6: the camera was turned; the stored pixels are 300×200, the photo is 200×300.
    const photo = await preparePhoto(await jpeg(300, 200, 6));
    expect([photo.width, photo.height]).toEqual([200, 300]);
    const original = await sharp(photo.files[0]!.bytes).metadata();
    expect([original.width, original.height]).toEqual([200, 300]);
    expect(original.exif).toBeUndefined();
    expect(original.orientation).toBeUndefined();
    // Upright: the red half that was on the left is now on top.
    const { data } = await sharp(photo.files[0]!.bytes)
      .extract({ left: 100, top: 20, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(150);
    expect(data[2]).toBeLessThan(80);
    const rendition = await sharp(photo.files.find((f) => f.name.endsWith("-160.webp"))!.bytes).metadata();
    expect([rendition.width, rendition.height]).toEqual([160, 240]);
    expect(rendition.exif).toBeUndefined();
  });
});

describe("photos refused", () => {
  it("refuses what is not a JPEG, PNG or WebP image (415)", async () => {
    const error = await refusal(preparePhoto(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>")));
    expect([error.status, error.fieldErrors?.photos]).toEqual([415, PHOTO_WRONG_TYPE]);
  });

  it("refuses a file over the size limit (413) before looking at it", async () => {
    const big = new Uint8Array(MAX_PHOTO_BYTES + 1);
    big.set([0xff, 0xd8, 0xff]);
    const error = await refusal(preparePhoto(big));
    expect([error.status, error.fieldErrors?.photos]).toEqual([413, PHOTO_TOO_LARGE]);
  });

  it("refuses a decompression bomb: a small file that claims more pixels than the limit (413)", async () => {
    const bomb = await pngClaiming(20_000, 20_000);
    expect(bomb.byteLength).toBeLessThan(1024);
    const error = await refusal(preparePhoto(bomb));
    expect([error.status, error.fieldErrors?.photos]).toEqual([413, PHOTO_TOO_MANY_PIXELS]);
  });

  it("refuses a 0×0 image, a damaged one, and one too small to show (400)", async () => {
    for (const bytes of [await pngClaiming(0, 0), Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(400, 7)])]) {
      const error = await refusal(preparePhoto(bytes));
      expect([error.status, error.fieldErrors?.photos]).toEqual([400, PHOTO_DAMAGED]);
    }
    const tiny = await refusal(preparePhoto(await jpeg(120, 90)));
    expect([tiny.status, tiny.fieldErrors?.photos]).toEqual([400, PHOTO_TOO_SMALL]);
  });

  it("refuses a whole post when one of its files is bad, or when it has too many", async () => {
    const form = new FormData();
    form.append("photos", new File([new Uint8Array(await jpeg(400, 300))], "a.jpg"));
    form.append("photos", new File(["not an image"], "b.txt"));
    expect((await refusal(preparePhotos(form))).status).toBe(415);
    const many = new FormData();
    for (let i = 0; i < 5; i++) many.append("photos", new File([new Uint8Array(await jpeg(400, 300))], `${i}.jpg`));
    expect((await refusal(preparePhotos(many))).fieldErrors?.photos).toBe(TOO_MANY_PHOTOS);
  });
});

describe("the names and limits photos add", () => {
  const hex = "0123456789abcdef0123456789abcdef";
  it("the store takes a rendition's name, and only in AVIF or WebP; an upload's name stays as it was", () => {
    expect([`${hex}-640.avif`, `${hex}-1440.webp`, `${hex}.jpg`, `${hex}.png`, `${hex}.webp`].map(uploadNameExt)).toEqual([
      "avif",
      "webp",
      "jpg",
      "png",
      "webp",
    ]);
    for (const name of [`${hex}.avif`, `${hex}-640.jpg`, `${hex}-0640.webp`, `${hex}-6.webp`, `${hex}-64000.avif`, `../${hex}-640.avif`]) {
      expect(uploadNameExt(name), name).toBeNull();
    }
  });

  it("only the photos page takes a photos-sized body", () => {
    expect(bodyLimitFor("/admin/products/12/photos")).toBe(MAX_PHOTOS_BODY_BYTES);
    expect(bodyLimitFor("/admin/products")).toBe(MAX_ADMIN_BODY_BYTES);
    expect(bodyLimitFor("/admin/products/12/photos/x")).toBe(MAX_ADMIN_BODY_BYTES);
  });
});
