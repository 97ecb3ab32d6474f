import type { Category } from "./catalogue";

/** Shown on /categories when the database has no categories yet (docs/product.md). */
export const DEFAULT_CATEGORIES: Category[] = [
  {
    id: -1,
    slug: "living-room",
    title: "Living Room",
    description: "Sofas, lounge chairs and coffee tables for the heart of the home.",
    imgPath: "/images/categories/living-room.svg",
  },
  {
    id: -2,
    slug: "bedroom",
    title: "Bedroom",
    description: "Beds, bedside tables and wardrobes for restful nights.",
    imgPath: "/images/categories/bedroom.svg",
  },
  {
    id: -3,
    slug: "dining-room",
    title: "Dining Room",
    description: "Dining tables, chairs and sideboards for meals together.",
    imgPath: "/images/categories/dining-room.svg",
  },
  {
    id: -4,
    slug: "office",
    title: "Office",
    description: "Desks, chairs and storage for focused work at home.",
    imgPath: "/images/categories/office.svg",
  },
  {
    id: -5,
    slug: "outdoor",
    title: "Outdoor",
    description: "Weather-ready chairs, tables and swings for balconies and gardens.",
    imgPath: "/images/categories/outdoor.svg",
  },
];
