// What every inline icon shares (decorative: aria-hidden). No icon font, nothing from outside.
import type { SVGProps } from "react";

export type IconProps = SVGProps<SVGSVGElement>;
export const base = {
  width: 24,
  height: 24,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.8,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  "aria-hidden": true,
} as const;
