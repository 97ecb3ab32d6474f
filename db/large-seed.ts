// The large catalogue (SEED=large, `npm run db:seed -- --large`): the demo catalogue plus generated
// products up to a total (100,000 by default) over the five demo categories. Deterministic: the same
// total gives the same rows, row for row (one fixed pseudo-random sequence, no clock, no Math.random).
// Pure data and arithmetic, no database: db/seed.server.ts inserts what this makes.
import { seedCategories, seedProducts } from "./seed-data";
import type { SeedProduct } from "./seed-data";

/** How many products SEED=large leaves in the catalogue, the demo's included. */
export const LARGE_SEED_TOTAL = 100_000;
/** The cheapest and the dearest generated price, whole rupees (₹2,999 and ₹2,49,999). */
export const LARGE_PRICE_MIN = 2_999;
export const LARGE_PRICE_MAX = 249_999;
/** The share of generated products with no stock, and of featured ones. */
export const OUT_OF_STOCK_SHARE = 0.05;
export const FEATURED_SHARE = 0.005;

interface Kind {
  /** the noun in the title, "King Size Bed" */
  noun: string;
  /** the piece's size in cm: length, depth, height, each [min, max] */
  size: [[number, number], [number, number], [number, number]];
  /** weight in kg [min, max], and what it carries in kg (null: not given) */
  weight: [number, number];
  capacity: number | null;
  /** price in rupees [min, max] before rounding to …999 */
  price: [number, number];
  use: string;
}

const KINDS: Record<string, Kind[]> = {
  "living-room": [
    {
      noun: "3-Seater Sofa",
      size: [
        [190, 230],
        [80, 95],
        [80, 95],
      ],
      weight: [45, 90],
      capacity: 300,
      price: [18000, 120000],
      use: "family evenings",
    },
    {
      noun: "2-Seater Loveseat",
      size: [
        [130, 165],
        [78, 90],
        [78, 92],
      ],
      weight: [25, 55],
      capacity: 200,
      price: [9000, 60000],
      use: "compact flats",
    },
    {
      noun: "L-Shaped Sectional Sofa",
      size: [
        [240, 300],
        [150, 190],
        [80, 92],
      ],
      weight: [80, 140],
      capacity: 480,
      price: [40000, 249999],
      use: "large living rooms",
    },
    {
      noun: "Wingback Armchair",
      size: [
        [70, 90],
        [75, 90],
        [95, 110],
      ],
      weight: [18, 35],
      capacity: 120,
      price: [6000, 45000],
      use: "reading corners",
    },
    {
      noun: "Diwan",
      size: [
        [180, 200],
        [75, 95],
        [40, 50],
      ],
      weight: [30, 60],
      capacity: 250,
      price: [8000, 55000],
      use: "guests who stay over",
    },
    {
      noun: "Coffee Table",
      size: [
        [90, 130],
        [50, 70],
        [38, 46],
      ],
      weight: [12, 40],
      capacity: 60,
      price: [3500, 38000],
      use: "tea and board games",
    },
    {
      noun: "TV Unit",
      size: [
        [140, 200],
        [38, 48],
        [45, 60],
      ],
      weight: [25, 60],
      capacity: 80,
      price: [6000, 60000],
      use: "screens up to 65 inches",
    },
    {
      noun: "Recliner",
      size: [
        [85, 100],
        [90, 105],
        [98, 108],
      ],
      weight: [35, 60],
      capacity: 140,
      price: [15000, 90000],
      use: "lazy Sunday afternoons",
    },
    {
      noun: "Bookshelf",
      size: [
        [80, 120],
        [30, 40],
        [150, 200],
      ],
      weight: [25, 55],
      capacity: 100,
      price: [5000, 42000],
      use: "a growing library",
    },
  ],
  bedroom: [
    {
      noun: "King Size Bed",
      size: [
        [200, 215],
        [185, 200],
        [95, 120],
      ],
      weight: [90, 150],
      capacity: 400,
      price: [30000, 249999],
      use: "restful nights",
    },
    {
      noun: "Queen Size Bed",
      size: [
        [200, 210],
        [160, 170],
        [95, 115],
      ],
      weight: [75, 130],
      capacity: 350,
      price: [22000, 160000],
      use: "restful nights",
    },
    {
      noun: "Single Bed",
      size: [
        [195, 205],
        [95, 110],
        [80, 100],
      ],
      weight: [35, 60],
      capacity: 150,
      price: [9000, 45000],
      use: "children's rooms",
    },
    {
      noun: "3-Door Wardrobe",
      size: [
        [130, 160],
        [55, 62],
        [190, 215],
      ],
      weight: [80, 140],
      capacity: null,
      price: [20000, 140000],
      use: "a season's clothes",
    },
    {
      noun: "Bedside Table",
      size: [
        [40, 55],
        [35, 45],
        [45, 60],
      ],
      weight: [8, 18],
      capacity: 25,
      price: [2999, 18000],
      use: "books and a lamp",
    },
    {
      noun: "Chest of Drawers",
      size: [
        [80, 110],
        [40, 50],
        [90, 120],
      ],
      weight: [35, 70],
      capacity: 60,
      price: [9000, 60000],
      use: "folded linen",
    },
    {
      noun: "Dressing Table",
      size: [
        [90, 120],
        [38, 45],
        [140, 170],
      ],
      weight: [30, 55],
      capacity: 40,
      price: [8000, 55000],
      use: "getting ready in the morning",
    },
  ],
  "dining-room": [
    {
      noun: "4-Seater Dining Set",
      size: [
        [110, 130],
        [75, 85],
        [74, 78],
      ],
      weight: [45, 75],
      capacity: 100,
      price: [14000, 80000],
      use: "everyday family meals",
    },
    {
      noun: "6-Seater Dining Set",
      size: [
        [160, 185],
        [85, 95],
        [74, 78],
      ],
      weight: [70, 120],
      capacity: 120,
      price: [25000, 160000],
      use: "weekend lunches",
    },
    {
      noun: "8-Seater Dining Set",
      size: [
        [210, 240],
        [95, 105],
        [75, 78],
      ],
      weight: [110, 160],
      capacity: 150,
      price: [60000, 249999],
      use: "festive dinners",
    },
    {
      noun: "Foldable Dining Table",
      size: [
        [90, 120],
        [60, 75],
        [74, 77],
      ],
      weight: [15, 30],
      capacity: 60,
      price: [4500, 25000],
      use: "small kitchens",
    },
    {
      noun: "Dining Bench",
      size: [
        [110, 150],
        [35, 40],
        [45, 48],
      ],
      weight: [12, 25],
      capacity: 250,
      price: [3500, 22000],
      use: "long tables",
    },
    {
      noun: "Sideboard",
      size: [
        [140, 180],
        [40, 48],
        [80, 90],
      ],
      weight: [45, 80],
      capacity: 70,
      price: [15000, 95000],
      use: "crockery and linen",
    },
    {
      noun: "Crockery Cabinet",
      size: [
        [90, 120],
        [38, 45],
        [160, 190],
      ],
      weight: [50, 90],
      capacity: 80,
      price: [16000, 90000],
      use: "the good china",
    },
  ],
  office: [
    {
      noun: "Study Desk",
      size: [
        [100, 140],
        [55, 70],
        [74, 77],
      ],
      weight: [18, 40],
      capacity: 60,
      price: [4500, 38000],
      use: "long working days",
    },
    {
      noun: "Standing Desk",
      size: [
        [120, 160],
        [65, 80],
        [70, 125],
      ],
      weight: [30, 55],
      capacity: 100,
      price: [18000, 90000],
      use: "working on your feet",
    },
    {
      noun: "Ergonomic Chair",
      size: [
        [60, 70],
        [60, 70],
        [110, 130],
      ],
      weight: [14, 22],
      capacity: 120,
      price: [6000, 45000],
      use: "a straight back",
    },
    {
      noun: "Executive Chair",
      size: [
        [65, 75],
        [65, 75],
        [115, 130],
      ],
      weight: [18, 28],
      capacity: 130,
      price: [9000, 60000],
      use: "long meetings",
    },
    {
      noun: "Filing Cabinet",
      size: [
        [40, 50],
        [50, 62],
        [70, 130],
      ],
      weight: [20, 45],
      capacity: 60,
      price: [5000, 30000],
      use: "paperwork that piles up",
    },
    {
      noun: "Computer Table",
      size: [
        [90, 120],
        [50, 60],
        [74, 77],
      ],
      weight: [15, 30],
      capacity: 50,
      price: [2999, 20000],
      use: "a home office nook",
    },
    {
      noun: "Bookcase",
      size: [
        [70, 100],
        [28, 35],
        [150, 200],
      ],
      weight: [20, 45],
      capacity: 90,
      price: [5000, 35000],
      use: "files and reference books",
    },
  ],
  outdoor: [
    {
      noun: "Patio Set",
      size: [
        [70, 90],
        [70, 90],
        [72, 76],
      ],
      weight: [20, 45],
      capacity: 120,
      price: [9000, 70000],
      use: "morning chai outside",
    },
    {
      noun: "Garden Bench",
      size: [
        [120, 160],
        [55, 65],
        [80, 90],
      ],
      weight: [18, 40],
      capacity: 250,
      price: [6000, 40000],
      use: "shady corners of the garden",
    },
    {
      noun: "Swing Chair",
      size: [
        [95, 110],
        [90, 110],
        [190, 205],
      ],
      weight: [25, 45],
      capacity: 130,
      price: [8000, 50000],
      use: "lazy monsoon afternoons",
    },
    {
      noun: "Sun Lounger",
      size: [
        [190, 205],
        [65, 75],
        [30, 90],
      ],
      weight: [15, 30],
      capacity: 140,
      price: [7000, 45000],
      use: "poolside naps",
    },
    {
      noun: "Balcony Set",
      size: [
        [60, 75],
        [60, 75],
        [70, 75],
      ],
      weight: [12, 28],
      capacity: 100,
      price: [4500, 30000],
      use: "small balconies",
    },
    {
      noun: "Planter Stand",
      size: [
        [40, 90],
        [30, 40],
        [60, 120],
      ],
      weight: [5, 15],
      capacity: 40,
      price: [2999, 12000],
      use: "pots of tulsi and herbs",
    },
  ],
};

/** [name in the title, Material specification]: wood for indoors, weather-ready for outdoors. */
const INDOOR_MATERIALS: [string, string][] = [
  ["Sheesham", "Solid sheesham wood"],
  ["Teak", "Solid teak wood"],
  ["Mango Wood", "Kiln-dried mango wood"],
  ["Acacia", "Solid acacia wood"],
  ["Rosewood", "Indian rosewood"],
  ["Oak Veneer", "Engineered wood with oak veneer"],
  ["Cane", "Sheesham frame with hand-woven cane"],
  ["Walnut Finish", "Engineered wood, walnut laminate"],
];
const OUTDOOR_MATERIALS: [string, string][] = [
  ["Teak", "Grade A teak, weather-sealed"],
  ["Rattan", "Synthetic rattan on a powder-coated frame"],
  ["Wrought Iron", "Wrought iron, rust-proof coating"],
  ["Acacia", "Oiled acacia wood"],
  ["Cane", "Treated cane on a steel frame"],
];
const UPHOLSTERED = /Sofa|Loveseat|Armchair|Diwan|Recliner|Chair|Bed$/;
const FABRICS = [
  "cotton-linen upholstery",
  "velvet upholstery",
  "stain-resistant fabric",
  "leatherette upholstery",
  "jute blend upholstery",
];
/** Every colour is a key of `colourPalette` (app/content/illustrations.server.ts), which tints the illustration. */
const COLOURS = [
  "Walnut Brown",
  "Teak",
  "Charcoal Grey",
  "Ivory",
  "Indigo Blue",
  "Mustard Yellow",
  "Emerald Green",
  "Terracotta",
  "Natural Oak",
  "Black",
  "Beige",
  "Rosewood",
  "Sage Green",
];
const COLLECTIONS = [
  "Jaipur",
  "Jodhpur",
  "Udaipur",
  "Mysore",
  "Kerala",
  "Chettinad",
  "Bastar",
  "Kutch",
  "Malabar",
  "Goa",
  "Coorg",
  "Hampi",
  "Konark",
  "Shekhawati",
  "Channapatna",
  "Pondicherry",
  "Darjeeling",
  "Lucknow",
  "Saharanpur",
  "Bikaner",
];
const STYLES = ["Carved", "Classic", "Modern", "Rustic", "Minimalist", "Colonial", "Mid-Century", "Handcrafted", "Heritage", "Urban"];
const OPENINGS = [
  "Made by craftspeople in {place} from {material}, finished by hand.",
  "A {style} piece in {material}, built in our {place} workshop.",
  "{material} shaped into clean, {style} lines, made to order in {place}.",
  "Inspired by the old houses of {place}: {material} with a hand-rubbed finish.",
];
const CLOSINGS = [
  "Sized for {use}, and sturdy enough to last a generation.",
  "Made for {use}; delivered free, and easy to care for.",
  "A calm, practical choice for {use}.",
  "Comes with a one-year warranty, and is made for {use}.",
];
const ASSEMBLY = ["Free installation by our team", "Self-assembly, tools included"];

/** A small, fast pseudo-random sequence (mulberry32): the same seed gives the same numbers everywhere. */
function sequence(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return { next, int, pick };
}

function slugify(text: string) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The template with its {words} filled in, its first letter a capital. */
function fill(template: string, values: Record<string, string>) {
  const text = template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A price between the two, ending in 999 (₹12,999), inside the large seed's range. */
function price999(value: number) {
  const rounded = Math.round(value / 1000) * 1000 - 1;
  return Math.min(LARGE_PRICE_MAX, Math.max(LARGE_PRICE_MIN, rounded));
}

/**
 * The generated products for a catalogue of `total` products in all (the demo's included): the
 * `n`th (from 1) goes to category `n mod 5` in the demo's order, so every category gets a fifth.
 * Slugs are the title's words plus `10000 + n`: unique among themselves, and apart from the demo's,
 * none of which ends in a five-digit number.
 */
export function generateLargeCatalogue(total: number = LARGE_SEED_TOTAL): SeedProduct[] {
  const count = Math.max(0, Math.floor(total) - seedProducts.length);
  const random = sequence(0x5a6a);
  const categories = [...seedCategories].sort((a, b) => a.position - b.position);
  const out: SeedProduct[] = [];
  for (let n = 1; n <= count; n++) {
    const category = categories[(n - 1) % categories.length]!;
    const kind = random.pick(KINDS[category.slug] ?? KINDS["living-room"]!);
    const [materialName, material] = random.pick(category.slug === "outdoor" ? OUTDOOR_MATERIALS : INDOOR_MATERIALS);
    const place = random.pick(COLLECTIONS);
    const style = random.pick(STYLES);
    const colour = random.pick(COLOURS);
    const title = `${place} ${materialName} ${kind.noun}`;
    const [[l0, l1], [w0, w1], [h0, h1]] = kind.size;
    const weight = random.int(kind.weight[0], kind.weight[1]);
    const fabric = UPHOLSTERED.test(kind.noun) && category.slug !== "outdoor" ? `, ${random.pick(FABRICS)}` : "";
    const specifications: Record<string, string> = {
      Material: `${material}${fabric}`,
      Dimensions: `${random.int(l0, l1)} x ${random.int(w0, w1)} x ${random.int(h0, h1)} cm`,
      Color: colour,
      Weight: `${weight} kg`,
      Assembly: weight > 40 ? ASSEMBLY[0]! : random.pick(ASSEMBLY),
    };
    if (kind.capacity !== null) specifications["Max Weight Capacity"] = `${kind.capacity + 10 * random.int(0, 5)} kg`;
    const words = { place, material: material.charAt(0).toLowerCase() + material.slice(1), style: style.toLowerCase(), use: kind.use };
    const outOfStock = random.next() < OUT_OF_STOCK_SHARE;
    out.push({
      categorySlug: category.slug,
      slug: `${slugify(title)}-${10_000 + n}`,
      title,
      description: `${fill(random.pick(OPENINGS), words)} ${fill(random.pick(CLOSINGS), words)} In ${colour.toLowerCase()}.`,
      price: price999(kind.price[0] + random.next() * (kind.price[1] - kind.price[0])),
      featured: random.next() < FEATURED_SHARE,
      stock: outOfStock ? 0 : random.int(1, 40),
      specifications,
    });
  }
  return out;
}
