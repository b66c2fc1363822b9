/**
 * The hero illustration of the consent flow, a static SVG (`public/illustrations/consent-flow.svg`,
 * cached, no client code): a buyer's request becomes an SMS on the owner's phone, the owner taps Allow, and only then
 * does a pin appear on the buyer's map. The drawing is decorative; the translated captions are what a screen reader
 * reads.
 */
export function ConsentFlow({ steps }: { steps: [string, string, string] }) {
  return (
    <figure className="mt-8" data-testid="consent-flow">
      {/* eslint-disable-next-line @next/next/no-img-element -- a static SVG needs no optimizer */}
      <img src="/illustrations/consent-flow.svg" alt="" width={360} height={120} className="h-auto w-full max-w-md" />
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
