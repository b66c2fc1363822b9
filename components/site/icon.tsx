import type { IconNode } from 'lucide';

/**
 * A Lucide icon (issue 13 §17: one icon set, imported per icon, e.g. `import { MapPin } from 'lucide'`) drawn as an
 * inline SVG by the server: no client code, unlike lucide-react, whose components are client components. Decorative
 * (`aria-hidden`); the text next to it carries the meaning. Lucide's 24×24 grid, 2 px round strokes in currentColor.
 */
export function Icon({ icon, className = 'h-6 w-6' }: { icon: IconNode; className?: string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden
      focusable="false"
    >
      {icon.map(([Tag, attrs], i) => (
        <Tag key={i} {...(attrs as Record<string, string>)} />
      ))}
    </svg>
  );
}
