// Icons of delivery, warranty and returns (product page, checkout, orders): small inline SVGs kept apart by the pages that use
// them, so the browser's shell carries only its own (components/icon-base).
import { base } from "./icon-base";
import type { IconProps } from "./icon-base";

export const TruckIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M2.5 6.5h11v9h-11zM13.5 9.5h4l3 3v3h-7" />
    <circle cx="6.5" cy="17.5" r="1.8" />
    <circle cx="17" cy="17.5" r="1.8" />
  </svg>
);
export const ShieldIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M12 3l7.5 3v5.5c0 4.6-3.1 8.2-7.5 9.5-4.4-1.3-7.5-4.9-7.5-9.5V6z" />
    <path d="M9 12l2 2 4-4" />
  </svg>
);
export const ReturnIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M9 14l-5-5 5-5" />
    <path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
  </svg>
);
