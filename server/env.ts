import 'server-only';
import { createEnv } from '@t3-oss/env-nextjs';
import { z } from 'zod';
import { SITE_DEFAULTS, isDemoMode } from '../lib/site';
import { browserRules, browserSettings, issueLines } from '../lib/settings/browser';

/**
 * Settings, read once from `process.env` and validated with zod through `@t3-oss/env-nextjs` (docs/rules.md#runtime):
 * server-only settings under `server`, the `NEXT_PUBLIC_*` ones the browser build also reads under `client`, and the
 * rules that tie settings together in `createFinalSchema`. A missing or malformed setting stops start-up with a
 * message naming it. `.env.example` lists every setting with its default and meaning. Providers are chosen by
 * setting, never by NODE_ENV.
 */
const bool = z.enum(['true', 'false', '1', '0', 'on', 'off']).transform((v) => v === 'true' || v === '1' || v === 'on');

const databaseSettings = {
  DATABASE_URL: z.url().optional(),
  /**
   * The owner role's connection to the same database (docs/deploy.md, "The database roles"): migrations, the job
   * queue's tables and the app role's grants are done with it; unset, DATABASE_URL's role does them itself.
   */
  MIGRATION_DATABASE_URL: z.url().optional(),
  /**
   * A direct (session) connection to the same database for what a transaction pooler cannot carry: the live hub's
   * `LISTEN` and the outbox listener's (PgBouncer's transaction mode delivers no notification, docs/deploy.md "Behind a
   * pooler"). Unset: DATABASE_URL, which must then be a direct connection.
   */
  DATABASE_SESSION_URL: z.url().optional(),
  /**
   * The live broker's engine (docs/decisions/0019-live-broker.md): a Redis or Valkey server (`redis://host:6379/0`,
   * `rediss://` for TLS; a password as `redis://:password@host:6379`) that carries the "new positions" notices of the
   * buyers' open maps between app processes, one Redis Stream per request, each process reading only the requests
   * whose maps it holds. Unset: PostgreSQL's NOTIFY carries them (nothing to install; every process hears every
   * notice, and notifying commits take one database-wide lock, so it stops scaling at a few processes).
   */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  EMBEDDED_PG_DIR: z.string().min(1).default('.data/pg'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
};

const siteSettings = {
  /** Where links in SMS and e-mails point; `http://localhost:${PORT}` when unset. */
  APP_ORIGIN: z.url(),
  SUPPORT_EMAIL: z.email().default(SITE_DEFAULTS.support),
  BILLING_DESCRIPTOR: z.string().min(1).max(22).default(SITE_DEFAULTS.descriptor),
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  DEV_OUTBOX: z.enum(['auto', 'on', 'off']).default('auto'),
  JOBS_IN_PROCESS: bool.default(true),
  /** Level of the JSON logs on stdout (pino): fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Bearer token of the Prometheus endpoint `/api_f/v1/metrics`; unset: the endpoint answers 404. */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** Port on which `npm run worker` serves its own metrics (same token); unset: none. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
};

const providersSettings = {
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).default('sandbox'),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'a Stripe secret key (sk_test_… or sk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'a webhook signing secret (whsec_…)')
    .optional(),
  /** The publishable key the checkout page loads Stripe.js with (Embedded Checkout); the same account as the secret key. */
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_\w+$/, 'a Stripe publishable key (pk_test_… or pk_live_…)')
    .optional(),
  /** Another Stripe API host, e.g. stripe-mock or a test double: `http://127.0.0.1:12111`. Unset: api.stripe.com. */
  STRIPE_API_URL: z.url().optional(),
  /** Hours before the trial converts that the reminder e-mail goes out. */
  TRIAL_REMINDER_HOURS: z.coerce.number().min(0).max(23).default(4),
  /**
   * Whether a trial in which no location was ever shared is refunded and ends instead of converting
   * (services/billing/unconsented-trials.ts; docs/features.md "Payments and subscriptions"). On unless an operator must turn it off.
   */
  REFUND_UNCONSENTED_TRIALS: bool.default(true),
  /** Days before each yearly anniversary of a subscription that the annual reminder e-mail goes out. */
  ANNUAL_NOTICE_DAYS: z.coerce.number().int().min(1).max(60).default(7),
  /** Orders one client IP may create per hour. */
  ORDERS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(30),
  /**
   * Failed sign-ins per buyer address from every client per hour (docs/security.md "Rate limits"); each
   * account is also locked after 100 failures in a row whatever this says (NIST SP 800-63B, section 5.2.2).
   */
  LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).default(100),
  /** Days after the transaction within which a refund may be asked for (docs/rules.md#limits). */
  REFUND_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  SMS_PROVIDER: z.enum(['outbox', 'twilio']).default('outbox'),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'must look like AC followed by 32 hex digits')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16).optional(),
  /** Sender: a Messaging Service (MG…) or a phone number in E.164. */
  TWILIO_FROM: z
    .string()
    .regex(/^(MG[0-9a-fA-F]{32}|\+[1-9]\d{6,14})$/, 'a Messaging Service SID (MG…) or an E.164 number')
    .optional(),
  EMAIL_PROVIDER: z.enum(['outbox', 'smtp']).default('outbox'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  EMAIL_FROM: z.string().min(3).default(`${SITE_DEFAULTS.product} <no-reply@example.com>`),
  GEOIP_MMDB_DIR: z.string().optional(),
  /** The WhatsMyName site list of the reverse username lookup, relative to the working directory. */
  USERNAME_SITES_FILE: z.string().min(1).default('data/whatsmyname/wmn-data.json'),
  /** Sites one username lookup asks at the same time. */
  USERNAME_LOOKUP_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(16),
  /** How long one site may take to answer (ms) before it counts as unknown. */
  USERNAME_LOOKUP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** Username lookups one client (an IPv4 address, an IPv6 /64) may start per hour. */
  USERNAME_LOOKUPS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(10),
  /**
   * Outbound requests the username lookup may make per hour, service-wide, counted in PostgreSQL (every process and
   * worker shares it). A lookup starts only when all its sites fit in what is left (otherwise 429 `Api.lookupBusy`),
   * and a running lookup stops asking when the requests run out. The default, 20,000, is about 27 full lookups of the
   * 716-site list an hour, 5.6 requests a second on average; below the size of one lookup, no lookup can start.
   */
  USERNAME_LOOKUP_FETCHES_PER_HOUR: z.coerce.number().int().min(1).default(20_000),
  /**
   * Tests only: let the lookup reach loopback addresses (127.0.0.0/8, ::1), where the test's fake sites listen.
   * Private, link-local and other non-public addresses stay blocked either way.
   */
  USERNAME_LOOKUP_ALLOW_LOOPBACK: bool.default(false),
  /**
   * Tests only: let a Web Push endpoint be on this machine (http or https on `localhost`, 127.0.0.0/8, `[::1]`), where
   * the tests' push service (web-push-testing) listens (services/messaging/web-push.ts `pushEndpointAllowed`). Private,
   * link-local and other non-public addresses stay refused either way. Refused at start in live mode and with
   * NODE_ENV=production, so a deployment cannot turn it on by accident.
   */
  PUSH_TEST_ALLOW_LOOPBACK: bool.default(false),
  /** Have I Been Pwned API v3 key; unset: the data-leak check says it is not configured here. */
  HIBP_API_KEY: z.string().min(16, 'at least 16 characters').optional(),
  /** Base URL of the HIBP API v3; another host for tests. */
  HIBP_API_URL: z.url().default('https://haveibeenpwned.com/api/v3'),
  /**
   * Base URL of the Pwned Passwords range API, asked when a password is chosen (k-anonymity: only the first 5 hex
   * characters of its SHA-1 leave the server); `off`: only the local list of common passwords is used.
   */
  PWNED_PASSWORDS_URL: z.union([z.literal('off'), z.url()]).default('https://api.pwnedpasswords.com'),
  CONSENT_LINK_TTL_HOURS: z.coerce.number().positive().max(168).default(24),
  POSITION_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Days the append-only consent records are kept after their request's positions are deleted. */
  CONSENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  SMS_MAX_PER_BUYER_PER_DAY: z.coerce.number().int().min(0).default(10),
  SMS_MAX_PER_TARGET_PER_DAY: z.coerce.number().int().min(0).default(3),
  SMS_GLOBAL_DAILY_CAP: z.coerce.number().int().min(0).default(1000),
  /**
   * On SIGTERM the web process fails readiness and keeps serving this long before it ends its live streams (ms), so
   * that the balancer stops sending it requests first (docs/deploy.md). 0 in tests; SIGINT (Ctrl-C) never waits.
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  LIVE_STREAMS_PER_SESSION: z.coerce.number().int().min(1).default(4),
  LIVE_STREAMS_PER_ACCOUNT: z.coerce.number().int().min(1).default(8),
  LIVE_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).default(24),
  SMS_COUNTRY_ALLOWLIST: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 codes, comma-separated'))),
};

/** Tracking and ad settings (server side; the ad-events hash is a browser setting, below). */
const trackingSettings = {
  /** Meta Conversions API: dataset (pixel) id and access token; events are forwarded only when both are set. */
  META_PIXEL_ID: z.string().regex(/^\d+$/, 'digits').optional(),
  META_CAPI_TOKEN: z.string().min(10).optional(),
  /** Graph API base with its version; another host for tests. */
  META_GRAPH_URL: z.url().default('https://graph.facebook.com/v21.0'),
  /** Tracking calls (operation log, button clicks, ad events) accepted per client IP per hour; a visit makes a few. */
  TRACKING_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(600),
  /** Days tracking rows (operation log, button clicks, ad events with IP and user agent) are kept. */
  TRACKING_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /**
   * Days the proof of a buyer's consent to the subscription (terms shown at Pay, prices, time, address) is kept: 3 years
   * by default (California's limitation period for automatic-renewal claims), then deleted by the daily retention job.
   */
  SUBSCRIPTION_CONSENT_RETENTION_DAYS: z.coerce.number().int().min(365).max(3650).default(1095),
};

const serverSettings = { ...databaseSettings, ...siteSettings, ...providersSettings, ...trackingSettings };

type Shape = typeof serverSettings & typeof browserSettings;

/** All settings with the rules that tie them together (the live-mode identity, each provider's credentials). */
const finalSchema = (shape: Shape, nodeEnv: string | undefined) =>
  z.object(shape).superRefine((e, ctx) => {
    browserRules(e, ctx);
    // The push sender's loopback allowance is for the test suite only: never where real alerts go out.
    if (e.PUSH_TEST_ALLOW_LOOPBACK && (!isDemoMode(e) || nodeEnv === 'production')) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUSH_TEST_ALLOW_LOOPBACK'],
        message: 'tests only: must not be on in live mode or with NODE_ENV=production',
      });
    }
    if (e.EMAIL_PROVIDER === 'smtp' && !e.SMTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'required when EMAIL_PROVIDER=smtp' });
    }
    if (e.PAYMENT_PROVIDER === 'stripe') {
      for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY'] as const) {
        if (!e[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when PAYMENT_PROVIDER=stripe' });
      }
    }
    if (e.SMS_PROVIDER === 'twilio') {
      for (const key of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const) {
        if (!e[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when SMS_PROVIDER=twilio' });
      }
    }
    // Live mode: real payments and real SMS may not go out under the demo identity.
    if (!isDemoMode(e)) {
      const placeholders = {
        NEXT_PUBLIC_COMPANY_NAME: e.NEXT_PUBLIC_COMPANY_NAME === SITE_DEFAULTS.company,
        SUPPORT_EMAIL: e.SUPPORT_EMAIL === SITE_DEFAULTS.support || e.SUPPORT_EMAIL.endsWith('@example.com'),
        BILLING_DESCRIPTOR: e.BILLING_DESCRIPTOR === SITE_DEFAULTS.descriptor,
      };
      for (const [key, left] of Object.entries(placeholders)) {
        if (left) ctx.addIssue({ code: 'custom', path: [key], message: 'still the demo placeholder (live mode)' });
      }
      // /dev/outbox shows every SMS and e-mail with its links and codes: never with real messages.
      if (e.DEV_OUTBOX === 'on') {
        ctx.addIssue({ code: 'custom', path: ['DEV_OUTBOX'], message: 'must not be on in live mode' });
      }
      const origin = new URL(e.APP_ORIGIN);
      if (origin.protocol !== 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(origin.hostname)) {
        ctx.addIssue({ code: 'custom', path: ['APP_ORIGIN'], message: 'must be the public https origin (live mode)' });
      }
    }
  });

export type Env = z.infer<ReturnType<typeof finalSchema>>;

/**
 * Parses `source` into typed settings; throws an Error naming every bad setting, one per line
 * (`  NAME: message`). Empty values count as unset; `NODE_ENV` is read only to refuse a test-only setting. `APP_ORIGIN` defaults to `http://localhost:${PORT}` (3000 when
 * PORT is unset), so a server started on another port sends working links.
 */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const runtimeEnv: Record<string, string | undefined> = { ...source };
  if (!runtimeEnv.APP_ORIGIN) runtimeEnv.APP_ORIGIN = `http://localhost:${runtimeEnv.PORT || 3000}`;
  return createEnv({
    server: serverSettings,
    client: browserSettings,
    // This module never runs in a browser (server-only): every setting is validated, also under a DOM test environment.
    isServer: true,
    runtimeEnv: runtimeEnv as Record<keyof Shape, string | undefined>,
    emptyStringAsUndefined: true,
    createFinalSchema: (shape) => finalSchema(shape as Shape, source.NODE_ENV),
    onValidationError: (issues) => {
      throw new Error(`Invalid settings (see .env.example):\n${issueLines(issues).join('\n')}`);
    },
  });
}

let cached: Env | undefined;

/** The process's settings, validated on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Whether `/dev/outbox` is served: `auto` means on while both SMS and e-mail use the `outbox` provider. */
export function devOutboxEnabled(e: Env = env()): boolean {
  if (e.DEV_OUTBOX !== 'auto') return e.DEV_OUTBOX === 'on';
  return e.SMS_PROVIDER === 'outbox' && e.EMAIL_PROVIDER === 'outbox';
}
