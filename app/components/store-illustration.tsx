/**
 * A drawn, not-to-scale street scene with a pin, shown on the store page when
 * no Maps key is configured: it gives the page a map's shape without any
 * request to a third party. Decorative; the address beside it carries the facts.
 */
export function StoreIllustration({ label }: { label: string }) {
  return (
    <svg
      viewBox="0 0 640 400"
      className="h-auto w-full"
      aria-hidden="true"
      focusable="false"
      preserveAspectRatio="xMidYMid slice"
    >
      <rect width="640" height="400" fill="#e6ecf5" />
      {/* River along the top, parks, then a grid of streets. */}
      <path d="M0 58 C120 20 220 96 340 62 S540 18 640 54 L640 0 L0 0 Z" fill="#b9d3ef" />
      <path d="M0 58 C120 20 220 96 340 62 S540 18 640 54" fill="none" stroke="#9cc0e6" strokeWidth="3" />
      <rect x="34" y="250" width="120" height="92" rx="10" fill="#cfe5c8" />
      <rect x="470" y="110" width="128" height="70" rx="10" fill="#cfe5c8" />
      <g stroke="#ffffff" strokeLinecap="round">
        <path d="M0 200 H640" strokeWidth="22" />
        <path d="M300 90 V400" strokeWidth="22" />
        <path d="M0 126 H640 M0 290 H640 M0 360 H640" strokeWidth="9" />
        <path d="M90 90 V400 M190 90 V400 M420 90 V400 M530 200 V400" strokeWidth="9" />
        <path d="M420 290 L640 210" strokeWidth="9" />
      </g>
      <g stroke="#f6c94a" strokeWidth="3" strokeDasharray="14 10">
        <path d="M0 200 H640" />
        <path d="M300 90 V400" />
      </g>
      <g fill="#c9d4e3">
        <rect x="320" y="222" width="80" height="50" rx="4" />
        <rect x="210" y="222" width="72" height="50" rx="4" />
        <rect x="320" y="308" width="80" height="36" rx="4" />
        <rect x="440" y="222" width="70" height="50" rx="4" />
      </g>
      {/* The store's block and pin. */}
      <rect x="318" y="140" width="90" height="46" rx="5" fill="#172c4a" />
      <g transform="translate(362 150)">
        <ellipse cx="0" cy="44" rx="16" ry="5" fill="#0a1526" opacity="0.25" />
        <path
          d="M0 44 C-6 30 -26 14 -26 -8 A26 26 0 1 1 26 -8 C26 14 6 30 0 44 Z"
          fill="#ffc20e"
          stroke="#0a1526"
          strokeWidth="3"
        />
        <circle cx="0" cy="-8" r="9" fill="#0a1526" />
      </g>
      <g transform="translate(362 92)">
        <rect x="-92" y="-22" width="184" height="32" rx="6" fill="#0a1526" />
        <text
          x="0"
          y="0"
          textAnchor="middle"
          fill="#ffffff"
          fontFamily="'Barlow Condensed', 'Inter Variable', sans-serif"
          fontSize="18"
          fontWeight="700"
          letterSpacing="1"
        >
          {label.toUpperCase()}
        </text>
      </g>
    </svg>
  );
}
