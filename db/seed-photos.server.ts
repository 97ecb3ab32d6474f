// Demo photos for a few products of the demo catalogue, made on this machine at seed time (nothing
// is downloaded): each product's drawn illustration rasterised with sharp, as seen straight on,
// mirrored in warmer light, and closer up, then passed through the same pipeline as a staff
// member's upload (app/lib/photos.server.ts) and stored with their rows. A few pieces sold in
// colours, fabrics or finishes get one photo per variant, the drawing in that variant's colour
// (the walnut desk shows walnut). Only a few products, so a first start stays quick (each photo
// costs about half a second of one core); the rest of the catalogue keeps its drawings.
import sharp from "sharp";
import type { Kysely } from "kysely";
import type { DB } from "../app/lib/db-schema";
import type { CategoryKind } from "../app/content/illustrations.server";
import { isCategoryKind, productSvg } from "../app/content/illustrations.server";
import type { ImageStore } from "../app/lib/image-store.server";
import { imageStore } from "../app/lib/image-store.server";
import type { PreparedPhoto } from "../app/lib/photos.server";
import { preparePhoto } from "../app/lib/photos.server";
import { insertPhotos } from "../app/models/catalogue/photos.server";
import { seedProducts } from "./seed-data";

/** The pieces whose variants get a photo each, and the drawing's colour for each value of their option. */
export const VARIANT_PHOTO_COLOURS: Record<string, Record<string, string>> = {
  "convertible-sofa-cum-bed": { "Jute Blend": "Beige", Suede: "Terracotta", Velvet: "Indigo Blue" },
  "mango-wood-dining-set-with-bench": { Natural: "Natural Oak", Walnut: "Walnut Brown", Honey: "Teak" },
  "executive-l-shaped-office-desk": { Wenge: "Rosewood", Walnut: "Walnut Brown", "Frosty White": "Ivory" },
  "wicker-4-seater-patio-sofa-set": { Cream: "Ivory", Charcoal: "Charcoal Grey", Terracotta: "Terracotta" },
};

/** The demo products that get photos: the featured sofa and bed (six photos, a few seconds of one core). */
export const DEMO_PHOTO_SLUGS = ["sheesham-wood-3-seater-sofa", "teak-king-size-bed-with-storage"];

/** The demo photos' size: the drawing's own (4:3), so four renditions each (160 to 800 wide). */
const WIDTH = 800;
const HEIGHT = 600;

const rasterise = (svg: string) => sharp(Buffer.from(svg), { density: 96 }).resize(WIDTH, HEIGHT);

/** The three views of a drawing, as WebP files the pipeline takes like any upload. */
async function views(svg: string): Promise<{ bytes: Uint8Array; alt: string }[]> {
  const drawn = await rasterise(svg).png().toBuffer();
  const straight = await sharp(drawn).webp({ quality: 90 }).toBuffer();
  const mirrored = await sharp(drawn).flop().modulate({ brightness: 1.04, saturation: 1.12, hue: -6 }).webp({ quality: 90 }).toBuffer();
  const closer = await sharp(drawn)
    .extract({ left: WIDTH / 5, top: HEIGHT / 5, width: (WIDTH * 3) / 5, height: (HEIGHT * 3) / 5 })
    .resize(WIDTH, HEIGHT)
    .modulate({ brightness: 0.97 })
    .webp({ quality: 90 })
    .toBuffer();
  return [
    { bytes: straight, alt: "front view" },
    { bytes: mirrored, alt: "from the other side, in warm light" },
    { bytes: closer, alt: "close-up" },
  ];
}

const kindOf = (categorySlug: string): CategoryKind => (isCategoryKind(categorySlug) ? categorySlug : "living-room");

/**
 * Photos for the DEMO_PHOTO_SLUGS products and the variants of VARIANT_PHOTO_COLOURS' that have
 * none yet (so a refresh never adds them twice): made first, then each product's stored in one
 * transaction. Answers how many photos were added.
 */
export async function seedDemoPhotos(db: Kysely<DB>, store: ImageStore = imageStore): Promise<number> {
  let added = 0;
  const save = async (itemId: number, prepared: { photo: PreparedPhoto; alt: string; variantId: number | null }[]) => {
    await db.transaction().execute(async (trx) => {
      for (const { photo, alt, variantId } of prepared) await insertPhotos(trx, itemId, [photo], alt, null, store, variantId);
    });
    added += prepared.length;
  };
  for (const slug of [...DEMO_PHOTO_SLUGS, ...Object.keys(VARIANT_PHOTO_COLOURS)]) {
    const seed = seedProducts.find((p) => p.slug === slug);
    const item = await db.selectFrom("items").select(["id", "title"]).where("slug", "=", slug).executeTakeFirst();
    if (!seed || !item) continue;
    if (await db.selectFrom("productPhotos").select("id").where("itemId", "=", item.id).executeTakeFirst()) continue;
    const kind = kindOf(seed.categorySlug);
    const prepared: { photo: PreparedPhoto; alt: string; variantId: number | null }[] = [];
    const colours = VARIANT_PHOTO_COLOURS[slug];
    if (colours) {
      // One photo per variant, the drawing in the colour of its value.
      const variants = await db
        .selectFrom("productVariants as v")
        .innerJoin("variantOptionValues as vov", "vov.variantId", "v.id")
        .innerJoin("productOptionValues as ov", "ov.id", "vov.optionValueId")
        .select(["v.id", "ov.value"])
        .where("v.itemId", "=", item.id)
        .orderBy("v.position")
        .execute();
      for (const variant of variants) {
        const colour = colours[variant.value];
        if (!colour) continue;
        const bytes = await rasterise(productSvg(kind, colour, slug))
          .webp({ quality: 90 })
          .toBuffer();
        prepared.push({ photo: await preparePhoto(bytes), alt: `${item.title} in ${variant.value}`, variantId: variant.id });
      }
    } else {
      for (const view of await views(productSvg(kind, seed.specifications.Color ?? "", slug))) {
        prepared.push({ photo: await preparePhoto(view.bytes), alt: `${item.title}, ${view.alt}`, variantId: null });
      }
    }
    await save(item.id, prepared);
  }
  return added;
}
