// Demo catalogue for Sagwan Living: pure data, no imports.
// Prices are whole rupees. Every `Color` is a key of `colourPalette` in
// app/content/illustrations.server.ts, which tints the product illustration.

export interface SeedCategory {
  slug: string;
  title: string;
  description: string;
  position: number;
}

export interface SeedProduct {
  categorySlug: string;
  slug: string;
  title: string;
  description: string;
  price: number;
  featured: boolean;
  stock: number;
  specifications: Record<string, string>;
  /** made after it is ordered: at least 14-21 business days to deliver (migration 0018, ADR 0017) */
  madeToOrder?: boolean;
}

export const seedCategories: SeedCategory[] = [
  {
    slug: "living-room",
    title: "Living Room",
    description: "Sofas, diwans and armchairs in solid wood and soft fabrics. Pieces made for long evenings with family and guests.",
    position: 1,
  },
  {
    slug: "bedroom",
    title: "Bedroom",
    description: "Beds with generous storage, carved headboards and sturdy frames. Calm, restful furniture for the room you wake up in.",
    position: 2,
  },
  {
    slug: "dining-room",
    title: "Dining Room",
    description: "Dining sets for two to eight, from compact foldable tables to marble-topped showpieces for festive meals.",
    position: 3,
  },
  {
    slug: "office",
    title: "Office",
    description: "Study desks, standing desks and ergonomic chairs for the home office. Built for long working days without the backache.",
    position: 4,
  },
  {
    slug: "outdoor",
    title: "Outdoor",
    description: "Weather-ready balcony, terrace and garden furniture in teak, rattan and wrought iron. Made for Indian sun and monsoon.",
    position: 5,
  },
];

export const seedProducts: SeedProduct[] = [
  // Living room
  {
    categorySlug: "living-room",
    slug: "sheesham-wood-3-seater-sofa",
    title: "Sheesham Wood 3-Seater Sofa",
    description:
      "A solid sheesham frame with deep, high-resilience foam seats and a cotton-linen cover. Hand-finished in Jodhpur and built to " +
      "last a generation.",
    price: 42999,
    featured: true,
    stock: 12,
    specifications: {
      Material: "Solid sheesham wood, cotton-linen upholstery",
      Dimensions: "210 x 85 x 90 cm",
      Color: "Mustard Yellow",
      Weight: "62 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "300 kg",
    },
  },
  {
    categorySlug: "living-room",
    slug: "chesterfield-velvet-2-seater-sofa",
    title: "Chesterfield Velvet 2-Seater Sofa",
    description:
      "Classic button-tufted Chesterfield in rich velvet with rolled arms. A compact statement piece for apartments, on turned mango " +
      "wood legs.",
    price: 34999,
    featured: false,
    stock: 0,
    specifications: {
      Material: "Velvet upholstery, kiln-dried mango wood frame",
      Dimensions: "160 x 88 x 78 cm",
      Color: "Emerald Green",
      Weight: "48 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "220 kg",
    },
  },
  {
    categorySlug: "living-room",
    slug: "mango-wood-l-shaped-sectional-sofa",
    title: "Mango Wood L-Shaped Sectional Sofa",
    description:
      "Seats six with a reversible chaise that fits either side of the room. Stain-resistant fabric and firm foam make it easy to " +
      "live with every day.",
    price: 48999,
    featured: false,
    stock: 5,
    specifications: {
      Material: "Mango wood frame, stain-resistant polyester fabric",
      Dimensions: "270 x 165 x 86 cm",
      Color: "Charcoal Grey",
      Weight: "95 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "480 kg",
    },
  },
  {
    categorySlug: "living-room",
    slug: "jaipur-fabric-loveseat",
    title: "Jaipur Fabric 2-Seater Loveseat",
    description:
      "A snug two-seater with a gently reclined back and block-print inspired fabric. Sized for compact flats, reading corners and " +
      "balconies.",
    price: 12999,
    featured: false,
    stock: 25,
    specifications: {
      Material: "Sheesham wood legs, cotton blend upholstery",
      Dimensions: "142 x 80 x 88 cm",
      Color: "Terracotta",
      Weight: "31 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "220 kg",
    },
  },
  {
    categorySlug: "living-room",
    slug: "teak-wood-diwan-with-bolsters",
    title: "Teak Wood Diwan with Bolsters",
    description:
      "A low teak diwan with a firm mattress and two round bolsters. Works as extra seating by day and a guest bed by night, with " +
      "storage below.",
    price: 24999,
    featured: false,
    stock: 9,
    specifications: {
      Material: "Solid teak wood, cotton mattress cover",
      Dimensions: "190 x 90 x 45 cm",
      Color: "Teak",
      Weight: "54 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "250 kg",
    },
  },
  {
    categorySlug: "living-room",
    slug: "convertible-sofa-cum-bed",
    title: "Convertible Sofa Cum Bed",
    description:
      "A three-seater that pulls out into a double bed in seconds. Ideal for compact flats, with a washable cover and a sturdy metal " +
      "mechanism.",
    price: 27999,
    featured: false,
    stock: 30,
    specifications: {
      Material: "Engineered wood and steel frame, washable fabric",
      Dimensions: "195 x 90 x 84 cm",
      Color: "Indigo Blue",
      Weight: "58 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "280 kg",
    },
  },

  // Bedroom
  {
    categorySlug: "bedroom",
    slug: "teak-king-size-bed-with-storage",
    title: "Teak King Size Bed with Storage",
    description:
      "A solid teak king bed with a panelled headboard and four deep drawers underneath. Plenty of room for linen, quilts and winter " +
      "clothes.",
    price: 46999,
    featured: true,
    stock: 7,
    specifications: {
      Material: "Solid teak wood",
      Dimensions: "208 x 188 x 105 cm",
      Color: "Teak",
      Weight: "118 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "400 kg",
    },
  },
  {
    categorySlug: "bedroom",
    slug: "sheesham-queen-bed-with-hydraulic-storage",
    title: "Sheesham Queen Bed with Hydraulic Storage",
    description:
      "The whole base lifts on gas struts to reveal full-length storage. A clean-lined sheesham bed that keeps the bedroom clutter-free.",
    price: 38999,
    featured: false,
    stock: 11,
    specifications: {
      Material: "Solid sheesham wood, engineered wood base",
      Dimensions: "208 x 168 x 100 cm",
      Color: "Walnut Brown",
      Weight: "102 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "350 kg",
    },
  },
  {
    categorySlug: "bedroom",
    slug: "upholstered-queen-bed-tufted-headboard",
    title: "Upholstered Queen Bed with Tufted Headboard",
    description:
      "A soft, tall headboard with deep button tufting for reading in bed. Finished in a breathable linen-look fabric over a solid " +
      "pine frame.",
    price: 31999,
    featured: true,
    stock: 8,
    specifications: {
      Material: "Pine wood frame, linen-look fabric",
      Dimensions: "210 x 170 x 120 cm",
      Color: "Beige",
      Weight: "78 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "350 kg",
    },
  },
  {
    categorySlug: "bedroom",
    slug: "pine-wood-single-bed",
    title: "Pine Wood Single Bed",
    description:
      "A simple, sturdy single bed for kids' rooms and guest rooms. Rounded corners, a slatted base for airflow and a natural matte " +
      "finish.",
    price: 9999,
    featured: false,
    stock: 30,
    specifications: {
      Material: "Solid pine wood",
      Dimensions: "196 x 98 x 80 cm",
      Color: "Natural Oak",
      Weight: "34 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "150 kg",
    },
  },
  {
    categorySlug: "bedroom",
    slug: "hand-carved-rosewood-king-bed",
    title: "Hand-Carved Rosewood King Bed",
    description:
      "Carved by artisans in Saharanpur, with a floral motif across the headboard. A heirloom bed in deep rosewood with a " +
      "hand-rubbed finish.",
    price: 44999,
    featured: false,
    stock: 3,
    madeToOrder: true,
    specifications: {
      Material: "Solid rosewood",
      Dimensions: "212 x 190 x 125 cm",
      Color: "Rosewood",
      Weight: "130 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "400 kg",
    },
  },
  {
    categorySlug: "bedroom",
    slug: "metal-frame-double-bed",
    title: "Metal Frame Double Bed",
    description:
      "A minimal powder-coated steel bed that assembles in under an hour. Light to move, quiet to sleep on and rust-proof for humid " +
      "cities.",
    price: 15999,
    featured: false,
    stock: 22,
    specifications: {
      Material: "Powder-coated steel",
      Dimensions: "200 x 156 x 90 cm",
      Color: "Black",
      Weight: "38 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "300 kg",
    },
  },

  // Dining room
  {
    categorySlug: "dining-room",
    slug: "sheesham-6-seater-dining-set",
    title: "Sheesham 6-Seater Dining Set",
    description:
      "A solid sheesham table with six cushioned chairs, sized for the whole family. Honey-walnut finish with a heat-resistant " +
      "lacquer coat.",
    price: 41999,
    featured: true,
    stock: 6,
    specifications: {
      Material: "Solid sheesham wood, cotton seat cushions",
      Dimensions: "180 x 90 x 76 cm",
      Color: "Walnut Brown",
      Weight: "88 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "120 kg",
    },
  },
  {
    categorySlug: "dining-room",
    slug: "acacia-wood-4-seater-dining-set",
    title: "Acacia Wood 4-Seater Dining Set",
    description:
      "A light acacia table with four curved-back chairs for smaller homes. The natural grain shows through a food-safe matte finish.",
    price: 25999,
    featured: false,
    stock: 15,
    specifications: {
      Material: "Solid acacia wood",
      Dimensions: "120 x 75 x 76 cm",
      Color: "Natural Oak",
      Weight: "52 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "100 kg",
    },
  },
  {
    categorySlug: "dining-room",
    slug: "marble-top-6-seater-dining-set",
    title: "Marble Top 6-Seater Dining Set",
    description:
      "A Makrana marble top on a solid wood base, with six upholstered chairs. Cool to the touch and made for festive dinners and " +
      "long lunches.",
    price: 47999,
    featured: false,
    stock: 4,
    specifications: {
      Material: "Makrana marble top, solid wood base",
      Dimensions: "180 x 95 x 76 cm",
      Color: "Ivory",
      Weight: "135 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "150 kg",
    },
  },
  {
    categorySlug: "dining-room",
    slug: "compact-foldable-2-seater-dining-set",
    title: "Compact Foldable 2-Seater Dining Set",
    description:
      "A drop-leaf table with two chairs that tuck away inside it. Opens for meals and folds flat against the wall in a studio flat.",
    price: 11999,
    featured: false,
    stock: 28,
    specifications: {
      Material: "Rubberwood with teak finish",
      Dimensions: "90 x 60 x 75 cm",
      Color: "Teak",
      Weight: "24 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "60 kg",
    },
  },
  {
    categorySlug: "dining-room",
    slug: "mango-wood-dining-set-with-bench",
    title: "Mango Wood Dining Set with Bench",
    description:
      "Two chairs and a long bench around a rustic mango wood table. The bench slides under the top when not in use to free up floor " +
      "space.",
    price: 29999,
    featured: false,
    stock: 10,
    specifications: {
      Material: "Solid mango wood, cotton seat pads",
      Dimensions: "150 x 85 x 76 cm",
      Color: "Terracotta",
      Weight: "70 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "110 kg",
    },
  },
  {
    categorySlug: "dining-room",
    slug: "industrial-metal-wood-dining-set",
    title: "Industrial Metal and Wood Dining Set",
    description:
      "A thick wooden top on matte black steel legs, with four matching chairs. A loft look that wipes clean and stands steady on " +
      "any floor.",
    price: 33999,
    featured: false,
    stock: 13,
    specifications: {
      Material: "Engineered wood top, powder-coated steel frame",
      Dimensions: "150 x 90 x 76 cm",
      Color: "Black",
      Weight: "64 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "120 kg",
    },
  },

  // Office
  {
    categorySlug: "office",
    slug: "ergonomic-mesh-office-chair",
    title: "Ergonomic Mesh Office Chair",
    description:
      "Breathable mesh back, adjustable lumbar support and 3D armrests. Keeps you cool and upright through long work-from-home days.",
    price: 14999,
    featured: true,
    stock: 35,
    specifications: {
      Material: "Nylon mesh, steel base, moulded foam seat",
      Dimensions: "66 x 64 x 118 cm",
      Color: "Black",
      Weight: "17 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "130 kg",
    },
  },
  {
    categorySlug: "office",
    slug: "sheesham-study-desk-with-drawers",
    title: "Sheesham Study Desk with Drawers",
    description:
      "A compact solid wood desk with three drawers and a cable cut-out. Room for a laptop, a lamp and all the files you keep " +
      "meaning to sort.",
    price: 18999,
    featured: false,
    stock: 0,
    specifications: {
      Material: "Solid sheesham wood",
      Dimensions: "120 x 60 x 76 cm",
      Color: "Walnut Brown",
      Weight: "36 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "80 kg",
    },
  },
  {
    categorySlug: "office",
    slug: "executive-l-shaped-office-desk",
    title: "Executive L-Shaped Office Desk",
    description:
      "An L-shaped desk with a lockable pedestal and a return for a second screen. Serious storage and space for a full home office setup.",
    price: 36999,
    featured: false,
    stock: 5,
    specifications: {
      Material: "Engineered wood with laminate finish, steel frame",
      Dimensions: "160 x 140 x 75 cm",
      Color: "Charcoal Grey",
      Weight: "68 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "120 kg",
    },
  },
  {
    categorySlug: "office",
    slug: "height-adjustable-standing-desk",
    title: "Height Adjustable Standing Desk",
    description:
      "Dual motors lift the oak-finish top from sitting to standing height in seconds. Four memory presets and anti-collision sensors.",
    price: 32999,
    featured: false,
    stock: 9,
    specifications: {
      Material: "Oak veneer top, steel dual-motor frame",
      Dimensions: "140 x 70 x 72-118 cm",
      Color: "Natural Oak",
      Weight: "42 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "100 kg",
    },
  },
  {
    categorySlug: "office",
    slug: "engineered-wood-computer-table",
    title: "Engineered Wood Computer Table",
    description:
      "A budget-friendly computer table with a keyboard tray and an open shelf. Moisture-resistant board in a clean, bright ivory finish.",
    price: 10999,
    featured: false,
    stock: 40,
    specifications: {
      Material: "Engineered wood, moisture-resistant laminate",
      Dimensions: "100 x 50 x 75 cm",
      Color: "Ivory",
      Weight: "22 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "50 kg",
    },
  },
  {
    categorySlug: "office",
    slug: "leatherette-executive-high-back-chair",
    title: "Leatherette Executive High-Back Chair",
    description:
      "A padded high-back chair with a headrest, tilt lock and padded armrests. Soft leatherette that wipes clean and looks smart on " +
      "calls.",
    price: 22999,
    featured: false,
    stock: 16,
    specifications: {
      Material: "PU leatherette, chrome base, high-density foam",
      Dimensions: "68 x 70 x 125 cm",
      Color: "Rosewood",
      Weight: "21 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "130 kg",
    },
  },

  // Outdoor
  {
    categorySlug: "outdoor",
    slug: "rattan-balcony-set-2-chairs-table",
    title: "Rattan Balcony Set with 2 Chairs and Table",
    description:
      "Two hand-woven rattan chairs and a round glass-top table for morning chai. UV-treated weave on a rust-proof frame, sized for " +
      "balconies.",
    price: 19999,
    featured: true,
    stock: 18,
    specifications: {
      Material: "Synthetic rattan, aluminium frame, toughened glass",
      Dimensions: "Chair 60 x 62 x 80 cm, table 50 x 50 x 48 cm",
      Color: "Beige",
      Weight: "20 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "110 kg",
    },
  },
  {
    categorySlug: "outdoor",
    slug: "teak-wood-3-seater-garden-bench",
    title: "Teak Wood 3-Seater Garden Bench",
    description:
      "A slatted teak bench that weathers to a soft silver grey if left unoiled. Naturally resistant to rain, termites and Indian summers.",
    price: 23999,
    featured: false,
    stock: 12,
    specifications: {
      Material: "Solid plantation teak",
      Dimensions: "150 x 62 x 90 cm",
      Color: "Teak",
      Weight: "32 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "270 kg",
    },
  },
  {
    categorySlug: "outdoor",
    slug: "wrought-iron-bistro-set",
    title: "Wrought Iron Bistro Set",
    description:
      "A café-style set of two chairs and a round table in scrolled wrought iron. Folds flat for storage when the monsoon arrives.",
    price: 12499,
    featured: false,
    stock: 24,
    specifications: {
      Material: "Wrought iron, powder-coated",
      Dimensions: "Table 60 x 60 x 72 cm",
      Color: "Black",
      Weight: "18 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "100 kg",
    },
  },
  {
    categorySlug: "outdoor",
    slug: "hanging-swing-chair-with-stand",
    title: "Hanging Swing Chair with Stand",
    description:
      "A cocoon swing chair on a steel stand, with a thick weatherproof cushion. Sway gently on the terrace on a cool evening with a book.",
    price: 21999,
    featured: false,
    stock: 7,
    specifications: {
      Material: "Synthetic wicker, powder-coated steel stand",
      Dimensions: "105 x 105 x 195 cm",
      Color: "Emerald Green",
      Weight: "35 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "120 kg",
    },
  },
  {
    categorySlug: "outdoor",
    slug: "wicker-4-seater-patio-sofa-set",
    title: "Wicker 4-Seater Patio Sofa Set",
    description:
      "A two-seater, two armchairs and a coffee table in all-weather wicker. Quick-dry cushions with zipped covers that come off for " +
      "washing.",
    price: 39999,
    featured: false,
    stock: 6,
    specifications: {
      Material: "All-weather PE wicker, aluminium frame, quick-dry foam",
      Dimensions: "Sofa 130 x 70 x 78 cm",
      Color: "Charcoal Grey",
      Weight: "46 kg",
      Assembly: "Free installation by our team",
      "Max Weight Capacity": "220 kg",
    },
  },
  {
    categorySlug: "outdoor",
    slug: "foldable-acacia-garden-set",
    title: "Foldable Acacia Garden Set",
    description:
      "Two folding chairs and a slatted table in oiled acacia. Sets up in a minute on the lawn and stores flat in a cupboard afterwards.",
    price: 16999,
    featured: false,
    stock: 20,
    specifications: {
      Material: "Oiled acacia wood, galvanised fittings",
      Dimensions: "Table 70 x 70 x 72 cm",
      Color: "Natural Oak",
      Weight: "21 kg",
      Assembly: "Self-assembly, tools included",
      "Max Weight Capacity": "110 kg",
    },
  },
];
