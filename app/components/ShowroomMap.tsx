import { contact } from "~/content/contact";

/** A drawn, decorative street map: nothing is loaded from outside (CSP). */
export function ShowroomMap() {
  return (
    <svg
      viewBox="0 0 640 320"
      role="img"
      aria-labelledby="showroom-map-title"
      className="block h-56 w-full bg-sand-100 sm:h-72"
      preserveAspectRatio="xMidYMid slice"
    >
      <title id="showroom-map-title">{`Map showing ${contact.showroomName}, ${contact.address}`}</title>
      {/* blocks and a park */}
      <rect x="0" y="0" width="640" height="320" className="fill-sand-100" />
      <rect x="40" y="30" width="150" height="90" rx="8" className="fill-sand-200" />
      <rect x="230" y="30" width="120" height="90" rx="8" className="fill-sand-200" />
      <rect x="460" y="190" width="150" height="100" rx="8" className="fill-sand-200" />
      <rect x="40" y="190" width="150" height="100" rx="8" className="fill-sand-200" />
      <rect x="400" y="30" width="210" height="110" rx="12" fill="#dfe8d3" />
      <circle cx="470" cy="80" r="14" fill="#c7d6b6" />
      <circle cx="520" cy="100" r="18" fill="#c7d6b6" />
      <circle cx="570" cy="70" r="12" fill="#c7d6b6" />
      {/* streets */}
      <g fill="none" stroke="#ffffff" strokeLinecap="round">
        <path d="M0 160 H640" strokeWidth="22" />
        <path d="M210 0 V320" strokeWidth="16" />
        <path d="M380 0 V320" strokeWidth="12" />
        <path d="M0 300 C160 260 300 250 640 170" strokeWidth="10" />
      </g>
      <g fill="none" className="stroke-sand-200" strokeDasharray="10 10" strokeWidth="2">
        <path d="M0 160 H640" />
      </g>
      <text x="24" y="152" className="fill-stone-500" fontSize="12" fontFamily="Inter Variable, sans-serif">
        Sindhu Bhavan Road
      </text>
      <text
        x="224"
        y="300"
        className="fill-stone-500"
        fontSize="11"
        fontFamily="Inter Variable, sans-serif"
        transform="rotate(-90 224 300)"
      >
        Bodakdev
      </text>
      {/* the pin */}
      <g transform="translate(300 160)">
        <ellipse cx="0" cy="2" rx="14" ry="5" fill="#000000" opacity="0.15" />
        <path d="M0 0 C-6 -14 -20 -24 -20 -40 A20 20 0 0 1 20 -40 C20 -24 6 -14 0 0 Z" className="fill-wood-600" />
        <circle cx="0" cy="-40" r="7" fill="#ffffff" />
      </g>
      <g transform="translate(300 92)">
        <rect x="-112" y="-24" width="224" height="34" rx="8" fill="#ffffff" className="stroke-sand-200" strokeWidth="1" />
        <text x="0" y="-2" textAnchor="middle" className="fill-ink" fontSize="15" fontWeight="600" fontFamily="Inter Variable, sans-serif">
          {contact.showroomName}
        </text>
      </g>
    </svg>
  );
}
