/**
 * The logo mark: a map pin holding a check mark — a position shared only with consent. Drawn in the
 * brand blue, decorative next to the product name (which carries the accessible name). Same drawing as app/icon.svg.
 */
export function LogoMark({ className = 'h-7 w-7' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden focusable="false">
      <rect width="32" height="32" rx="8" fill="#1d4ed8" />
      <path
        d="M16 5.5c-4.7 0-8.5 3.7-8.5 8.3 0 6 8.5 12.7 8.5 12.7s8.5-6.7 8.5-12.7c0-4.6-3.8-8.3-8.5-8.3z"
        fill="#fff"
      />
      <path
        d="m12.3 13.9 2.6 2.6 4.9-5"
        fill="none"
        stroke="#1d4ed8"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
