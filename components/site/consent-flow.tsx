/**
 * The hero illustration of the consent flow (issue 13 §17), as an inline SVG (no request, no client code): a buyer's
 * request becomes an SMS on the owner's phone, the owner taps Allow, and only then does a pin appear on the buyer's
 * map. The three captions come translated; the drawing itself is decorative and the list of captions is what a screen
 * reader reads.
 */
export function ConsentFlow({ steps }: { steps: [string, string, string] }) {
  return (
    <figure className="mt-8" data-testid="consent-flow">
      <svg viewBox="0 0 360 120" className="h-auto w-full max-w-md" aria-hidden focusable="false">
        {/* 1: the request as an SMS bubble */}
        <rect x="8" y="14" width="84" height="92" rx="14" fill="#eff6ff" stroke="#bfdbfe" />
        <rect x="20" y="34" width="60" height="28" rx="8" fill="#1d4ed8" />
        <path d="M30 62l-6 10 14-10z" fill="#1d4ed8" />
        <rect x="28" y="42" width="34" height="4" rx="2" fill="#fff" />
        <rect x="28" y="50" width="22" height="4" rx="2" fill="#bfdbfe" />
        {/* arrow */}
        <path
          d="M100 60h26m-6-6 6 6-6 6"
          fill="none"
          stroke="#94a3b8"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        {/* 2: the owner's phone with Allow / Decline */}
        <rect x="138" y="6" width="70" height="108" rx="12" fill="#fff" stroke="#334155" strokeWidth="3" />
        <rect x="150" y="24" width="46" height="6" rx="3" fill="#cbd5e1" />
        <rect x="150" y="36" width="34" height="6" rx="3" fill="#e2e8f0" />
        <rect x="150" y="62" width="46" height="16" rx="6" fill="#1d4ed8" />
        <path
          d="m165 70 4 4 8-8"
          fill="none"
          stroke="#fff"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <rect x="150" y="84" width="46" height="16" rx="6" fill="none" stroke="#334155" strokeWidth="2" />
        {/* arrow */}
        <path
          d="M216 60h26m-6-6 6 6-6 6"
          fill="none"
          stroke="#94a3b8"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        {/* 3: the map with the pin */}
        <rect x="254" y="14" width="98" height="92" rx="14" fill="#bfdbfe" />
        <path d="M262 84c14-10 22-2 36-12s26-4 46-14v34a12 12 0 0 1-12 12h-62a10 10 0 0 1-8-8z" fill="#f8fafc" />
        <circle cx="303" cy="74" r="18" fill="#1d4ed8" opacity=".15" />
        <path d="M303 38c-8 0-14 6-14 13.5 0 10 14 22.5 14 22.5s14-12.5 14-22.5C317 44 311 38 303 38z" fill="#1d4ed8" />
        <circle cx="303" cy="51" r="5" fill="#fff" />
      </svg>
      <figcaption>
        <ol className="mt-2 grid max-w-md grid-cols-3 gap-2 text-center text-xs text-slate-600">
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </figcaption>
    </figure>
  );
}
