import { TRACKING_PARAMS } from './tracking-params';

/**
 * Link rules of SPEC §2 and the external-link check of SPEC §5, as pure functions used by `components/ui/link.tsx`.
 */

/** SPEC §5: http, https or ftp with a domain (a dotted host or localhost), or mailto with an address. */
const EXTERNAL =
  /^(?:(?:https?|ftp):\/\/(?:[^\s/?#@]+@)?(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d+)?(?:[/?#]\S*)?|mailto:[^\s@]+@[^\s@]+\.[^\s@]+)$/i;

/** Whether `href` is an external link by SPEC §5 (http(s)/ftp URL with a domain, or mailto). */
export function isExternalLink(href: string): boolean {
  return EXTERNAL.test(href.trim());
}

/** How a link behaves (SPEC §2). */
export type LinkKind = 'disabled' | 'external' | 'hash' | 'internal';

/**
 * The kind of `href` seen from the page at `current` (its pathname): disabled links do nothing; external links
 * (SPEC §5, or any absolute URL of another scheme) open directly; `#id` and `<current path>#id` scroll in the page;
 * the rest navigate inside the site.
 */
export function linkKind(href: string, current: string, disabled = false): LinkKind {
  if (disabled) return 'disabled';
  if (isExternalLink(href) || /^[a-z][a-z0-9+.-]*:/i.test(href)) return 'external';
  if (href.startsWith('#')) return 'hash';
  const hash = href.indexOf('#');
  if (hash > 0) {
    const path = href.slice(0, hash).split('?')[0];
    if (path === current && !href.slice(0, hash).includes('?')) return 'hash';
  }
  return 'internal';
}

/**
 * `href` with the tracked parameters (SPEC §2) of the current address `search` added, unless `href` sets them
 * itself; the fragment stays last. `/about-us/` + `?gclid=abc&x=1` → `/about-us/?gclid=abc`.
 */
export function withTrackedParams(href: string, search: string): string {
  const current = new URLSearchParams(search);
  const [beforeHash, ...hashParts] = href.split('#');
  const [path, query = ''] = beforeHash!.split('?');
  const params = new URLSearchParams(query);
  let added = false;
  for (const name of TRACKING_PARAMS) {
    const value = current.get(name);
    if (value !== null && !params.has(name)) {
      params.set(name, value);
      added = true;
    }
  }
  if (!added) return href;
  const hash = hashParts.length ? `#${hashParts.join('#')}` : '';
  return `${path}?${params.toString()}${hash}`;
}
