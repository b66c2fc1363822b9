import { createEnv } from '@t3-oss/env-nextjs';
import { z } from 'zod';
import { SITE_DEFAULTS } from '../site';

/**
 * The settings the browser build reads: every `NEXT_PUBLIC_*` (docs/rules.md#runtime). Next inlines them into the
 * pages when it builds, so they are public and fixed per build. They are declared once here, with their defaults, and
 * validated with `@t3-oss/env-nextjs` twice: when next.config.ts is loaded (`next build`, `next start`, `next dev`: a
 * bad value fails the build with its name) and at the server's start-up (server/env.ts, `client`). The browser code
 * reads the inlined values (lib/site.ts, lib/tracking/*) with the same defaults (`SITE_DEFAULTS`) and ships no validator
 * (docs/decisions/0013-browser-settings-checked-at-build.md). Node-only: never import this from browser code.
 */
export const browserSettings = {
  NEXT_PUBLIC_PRODUCT_NAME: z.string().min(1).default(SITE_DEFAULTS.product),
  NEXT_PUBLIC_COMPANY_NAME: z.string().min(1).default(SITE_DEFAULTS.company),
  /** The `{hash}` of the ad-conversion endpoint `POST /api_{hash}` (letters and digits). */
  NEXT_PUBLIC_AD_EVENTS_HASH: z
    .string()
    .regex(/^[A-Za-z0-9]{4,40}$/, '4 to 40 letters or digits')
    .default(SITE_DEFAULTS.adEventsHash),
  /** Map tiles: a Leaflet URL template (`{s}`, `{z}`, `{x}`, `{y}`); OpenStreetMap's by default. */
  NEXT_PUBLIC_TILE_URL: z
    .string()
    .regex(/^https:\/\/[^\s]*\{z\}[^\s]*\{x\}[^\s]*\{y\}/, 'an https URL template with {z}, {x} and {y}')
    .default(SITE_DEFAULTS.tileUrl),
  /** The tiles' attribution (HTML), shown on every map; OpenStreetMap's by default. */
  NEXT_PUBLIC_TILE_ATTRIBUTION: z.string().min(1).default(SITE_DEFAULTS.tileAttribution),
  /** The button-click tracker's origin (docs/rules.md#api), without a path (`/api_f/…` is appended); unset: none. */
  NEXT_PUBLIC_TRACKER_ORIGIN: z
    .url({ protocol: /^https?$/ })
    .refine((value) => new URL(value).origin === value, 'an origin only (scheme, host, port), no path')
    .optional(),
  /** The in-app browsers' JavaScript bridges (docs/rules.md#api): the iOS and Android objects' names. */
  NEXT_PUBLIC_IOS_BRIDGE: z
    .string()
    .regex(/^[A-Za-z_$][\w$]*$/, 'a JavaScript name')
    .default(SITE_DEFAULTS.iosBridge),
  NEXT_PUBLIC_ANDROID_BRIDGE: z
    .string()
    .regex(/^[A-Za-z_$][\w$]*$/, 'a JavaScript name')
    .default(SITE_DEFAULTS.androidBridge),
  /** The help-desk chat: `none` or `crisp` (with NEXT_PUBLIC_CRISP_WEBSITE_ID). */
  NEXT_PUBLIC_HELP_CHAT: z.enum(['none', 'crisp']).default('none'),
  NEXT_PUBLIC_CRISP_WEBSITE_ID: z.string().min(1).optional(),
  /** The third-party event service, started only after cookies are accepted: `none` or `gtag` (Google Analytics 4). */
  NEXT_PUBLIC_EVENT_SERVICE: z.enum(['none', 'gtag']).default('none'),
  /** The Google Analytics 4 measurement id (with NEXT_PUBLIC_EVENT_SERVICE=gtag), e.g. G-XXXXXXX. */
  NEXT_PUBLIC_GA_MEASUREMENT_ID: z
    .string()
    .regex(/^G-[A-Z0-9]+$/, 'a GA4 measurement id (G-…)')
    .optional(),
};

/** The settings the rules between browser settings read. */
type RuleInput = {
  NEXT_PUBLIC_HELP_CHAT?: string;
  NEXT_PUBLIC_CRISP_WEBSITE_ID?: string;
  NEXT_PUBLIC_EVENT_SERVICE?: string;
  NEXT_PUBLIC_GA_MEASUREMENT_ID?: string;
};

/**
 * The rules between browser settings (server/env.ts applies them too): a chosen help chat or event service needs its
 * id, or the build would be a site that silently runs none.
 */
export function browserRules(e: RuleInput, ctx: z.RefinementCtx<unknown>): void {
  if (e.NEXT_PUBLIC_HELP_CHAT === 'crisp' && !e.NEXT_PUBLIC_CRISP_WEBSITE_ID) {
    const message = 'required when NEXT_PUBLIC_HELP_CHAT=crisp';
    ctx.addIssue({ code: 'custom', path: ['NEXT_PUBLIC_CRISP_WEBSITE_ID'], message });
  }
  if (e.NEXT_PUBLIC_EVENT_SERVICE === 'gtag' && !e.NEXT_PUBLIC_GA_MEASUREMENT_ID) {
    const message = 'required when NEXT_PUBLIC_EVENT_SERVICE=gtag';
    ctx.addIssue({ code: 'custom', path: ['NEXT_PUBLIC_GA_MEASUREMENT_ID'], message });
  }
}

/** The names of the browser settings declared above. */
const names = Object.keys(browserSettings) as (keyof typeof browserSettings)[];

/**
 * Validates the browser settings of `source` (e.g. `process.env`) and returns them typed, defaults applied; empty
 * values count as unset. Throws an Error naming every bad setting, one per line (`  NAME: message`), as server/env.ts
 * does for the rest.
 */
export function parseBrowserSettings(source: Record<string, string | undefined>) {
  return createEnv({
    client: browserSettings,
    isServer: true,
    runtimeEnv: Object.fromEntries(names.map((name) => [name, source[name]])) as Record<
      keyof typeof browserSettings,
      string | undefined
    >,
    emptyStringAsUndefined: true,
    createFinalSchema: (shape) => z.object(shape).superRefine((e, ctx) => browserRules(e as RuleInput, ctx)),
    onValidationError: (issues) => {
      throw new Error(`Invalid settings (see .env.example):\n${issueLines(issues).join('\n')}`);
    },
  });
}

/** One line per validation issue: `  NAME: message` (the setting's name, then zod's message). */
export function issueLines(
  issues: readonly { path?: readonly (PropertyKey | { key: PropertyKey })[]; message: string }[],
) {
  return issues.map(
    (i) => `  ${(i.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.')}: ${i.message}`,
  );
}
