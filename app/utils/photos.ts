// A product photo's renditions as pages name them (shared by the server, which makes them, and the
// gallery, which lists them in srcset): each photo is resized once, when it is uploaded
// (app/lib/photos.server.ts), to these widths in AVIF and WebP, never wider than the original.

/** The widths a photo is resized to, narrowest first (a phone's thumbnail to a wide screen at 2x). */
export const PHOTO_WIDTHS = [160, 320, 640, 960, 1440] as const;

/** The formats of every rendition, best first (the order of a <picture>'s sources). */
export const RENDITION_FORMATS = ["avif", "webp"] as const;
export type RenditionFormat = (typeof RENDITION_FORMATS)[number];

/**
 * The rendition widths of a photo `width` pixels wide: the standard widths it can fill, plus its
 * own width when it is narrower than the widest (so its sharpest rendition is its full size).
 */
export function photoWidths(width: number): number[] {
  const fits = PHOTO_WIDTHS.filter((w) => w <= width);
  const widest = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1];
  return width < widest && !fits.includes(width as (typeof PHOTO_WIDTHS)[number]) ? [...fits, width] : fits;
}

/** The public path of one rendition: /uploads/{base}-{width}.{format}. */
export const renditionPath = (base: string, width: number, format: RenditionFormat) => `/uploads/${base}-${width}.${format}`;

/** A srcset of a photo's renditions in one format: "/uploads/…-160.avif 160w, …". */
export const renditionSrcSet = (base: string, widths: readonly number[], format: RenditionFormat) =>
  widths.map((w) => `${renditionPath(base, w, format)} ${w}w`).join(", ");

/** The longest alt text a photo takes. */
export const MAX_ALT_CHARS = 200;

/** What a page needs of a product photo. */
export interface PhotoView {
  id: number;
  alt: string;
  width: number;
  height: number;
  /** the 32 hex every rendition's name starts with */
  base: string;
  widths: number[];
}
