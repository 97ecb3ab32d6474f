// Static home page content (docs/product.md: hero slides and testimonials).
export interface HeroSlide {
  id: number;
  imgPath: string;
  title: string;
  description: string;
}

export const HERO_INTERVAL_MS = 5000;

export const heroSlides: HeroSlide[] = [
  {
    id: 1,
    imgPath: "/images/hero/1.svg",
    title: "Premium Living Room Collection",
    description: "Sofas and lounge chairs in solid sheesham and teak, made to gather the family.",
  },
  {
    id: 2,
    imgPath: "/images/hero/2.svg",
    title: "Dining Room Essentials",
    description: "Tables and chairs for long dinners, festive feasts and everyday meals.",
  },
  {
    id: 3,
    imgPath: "/images/hero/3.svg",
    title: "Bedroom Sanctuary",
    description: "Beds, wardrobes and bedside tables that turn rest into a ritual.",
  },
];

export interface Testimonial {
  name: string;
  avatar: string;
  text: string;
}

export const testimonials: Testimonial[] = [
  {
    name: "Ananya Iyer",
    avatar: "/images/avatars/ananya-iyer.svg",
    text:
      "Our sheesham sofa arrived on time, beautifully packed, and the team set it up in twenty minutes. Two years on it still looks " +
      "new.",
  },
  {
    name: "Rohit Mehta",
    avatar: "/images/avatars/rohit-mehta.svg",
    text: "The dining set is sturdy and the finish is flawless. Customer support answered every question before I ordered.",
  },
  {
    name: "Farah Khan",
    avatar: "/images/avatars/farah-khan.svg",
    text:
      "I furnished my home office with Sagwan Living. The desk is solid wood, the chair is comfortable for long days. Worth every " +
      "rupee.",
  },
];
