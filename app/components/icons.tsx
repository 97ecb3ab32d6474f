// The storefront shell's icons (header, cards, lists, forms): small inline SVGs kept apart by the pages that use
// them, so the browser's shell carries only its own (components/icon-base). Each is one <path> where it can be
// (a circle drawn as two arcs): every element of an icon is drawn again on every page a server renders.
import { base } from "./icon-base";
import type { IconProps } from "./icon-base";

/** Two wheels (circles as arcs) and the basket. */
const CART_PATH = [
  "M7.6 20a1.4 1.4 0 1 0 2.8 0a1.4 1.4 0 1 0-2.8 0",
  "M16.6 20a1.4 1.4 0 1 0 2.8 0a1.4 1.4 0 1 0-2.8 0",
  "M2.5 3.5h2.6l2.3 11.2a1.6 1.6 0 0 0 1.6 1.3h8.6a1.6 1.6 0 0 0 1.6-1.2l1.6-6.8H6.1",
].join("");

export const CartIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d={CART_PATH} />
  </svg>
);
export const MenuIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </svg>
);
export const CloseIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);
export const UserIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M8 8a4 4 0 1 0 8 0a4 4 0 1 0-8 0M4 20.5c1.2-3.8 4.3-5.5 8-5.5s6.8 1.7 8 5.5" />
  </svg>
);
export const HeartIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M12 20.5s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.6a4.3 4.3 0 0 1 7.5 2.7c0 5.6-7.5 10.2-7.5 10.2z" />
  </svg>
);
export const SearchIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M4.5 11a6.5 6.5 0 1 0 13 0a6.5 6.5 0 1 0-13 0M20 20l-4.3-4.3" />
  </svg>
);
export const StarIcon = (p: IconProps) => (
  <svg {...base} fill="currentColor" stroke="none" {...p}>
    <path d="M12 3.2l2.7 5.6 6.1.8-4.5 4.2 1.1 6-5.4-2.9-5.4 2.9 1.1-6-4.5-4.2 6.1-.8z" />
  </svg>
);
export const ChevronLeftIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M15 5l-7 7 7 7" />
  </svg>
);
export const ChevronRightIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M9 5l7 7-7 7" />
  </svg>
);
export const FilterIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M4 5h16l-6 7.5V19l-4-2v-4.5z" />
  </svg>
);
export const AlertIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7.5v5.5M12 16.5v.01" />
  </svg>
);
export const PlusIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M12 5v14M5 12h14" />
  </svg>
);
export const MinusIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M5 12h14" />
  </svg>
);
