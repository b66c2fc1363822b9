import { TRACKING_PARAMS } from './tracking-params';

/**
 * Link rules of docs/rules.md#routes and the external-link check of docs/rules.md#validation, as pure functions used by `components/ui/link.tsx`.
 */

/** docs/rules.md#validation: http, https or ftp with a domain (a dotted host or localhost), or mailto with an address. */
const EXTERNAL =
  /^(?:(?:https?|ftp):\/\/(?:[^\s/?#@]+@)?(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d+)?(?:[/?#]\S*)?|mailto:[^\s@]+@[^\s@]+\.[^\s@]+)$/i;

/** Whether `href` is an external link by docs/rules.md#validation (http(s)/ftp URL with a domain, or mailto). */
export function isExternalLink(href: string): boolean {
  return EXTERNAL.test(href.trim());
}

/** How a link behaves (docs/rules.md#routes). */
export type LinkKind = 'disabled' | 'external' | 'hash' | 'internal';

/**
 * The kind of `href` seen from the page at `current` (its pathname): disabled links do nothing; external links
 * (docs/rules.md#validation, or any absolute URL of another scheme) open directly; `#id` and `<current path>#id` scroll in the page;
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
 * `href` with the tracked parameters (docs/rules.md#routes) of the current address `search` added, unless `href` sets them
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
