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

/** A stored product photo as the pages that manage it read it. */
export interface StoredPhoto {
  id: number;
  alt: string;
  width: number;
  height: number;
  /** the 32 hex every rendition's name starts with */
  base: string;
  widths: number[];
  /** the variant it shows, or null: the product as a whole */
  variantId: number | null;
}

/** What the product page's gallery draws of a photo: its addresses made on the server, not in the browser. */
export interface PhotoView {
  id: number;
  alt: string;
  width: number;
  height: number;
  /** srcset of the AVIF and WebP renditions */
  avif: string;
  webp: string;
  /** the fallback <img>'s source: the first rendition at least 640 px wide (or the widest) */
  src: string;
  /** the narrowest rendition, for a thumbnail */
  thumb: string;
}

export function photoView({ id, alt, width, height, base, widths }: StoredPhoto): PhotoView {
  return {
    id,
    alt,
    width,
    height,
    avif: renditionSrcSet(base, widths, "avif"),
    webp: renditionSrcSet(base, widths, "webp"),
    src: renditionPath(base, widths.find((w) => w >= 640) ?? widths.at(-1)!, "webp"),
    thumb: renditionPath(base, widths[0]!, "webp"),
  };
}

/**
 * The photos a product page shows for a variant: the variant's own first (the walnut sofa opens on
 * walnut), then the product's as a whole; never another variant's.
 */
export function photosOfVariant<P extends Pick<StoredPhoto, "variantId">>(photos: readonly P[], variantId: number | null): P[] {
  return [...photos.filter((p) => p.variantId !== null && p.variantId === variantId), ...photos.filter((p) => p.variantId === null)];
}
