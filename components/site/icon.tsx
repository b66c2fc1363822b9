/** Icons of the sprite `public/icons.svg` (`npm run icons`, from Lucide's icon data): their symbol ids. */
export type IconName =
  | 'check'
  | 'circle-x'
  | 'globe'
  | 'link-2'
  | 'locate-fixed'
  | 'lock-keyhole'
  | 'map-pin'
  | 'message-square-text'
  | 'navigation'
  | 'search'
  | 'shield-check'
  | 'smartphone'
  | 'wifi';

/**
 * A Lucide icon (one icon set) drawn from the sprite `/icons.svg` with `<use>`: no client code and a few
 * bytes of HTML, where an inline icon would repeat its paths in the HTML and the RSC payload. Decorative
 * (`aria-hidden`); the text next to it carries the meaning. Lucide's 24×24 grid, 2 px round strokes in currentColor
 * (the `icon` utility).
 */
export function Icon({ name, className = 'size-6' }: { name: IconName; className?: string }) {
  // The stroke style is the `icon` utility's (styles/globals.css), not attributes: each icon's markup stays short.
  return (
    <svg className={`icon ${className}`} aria-hidden>
      <use href={`/icons.svg#${name}`} />
    </svg>
  );
}
