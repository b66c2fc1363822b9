import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { env } from '../../env';

// The WhatsMyName site list the username lookup asks (data/whatsmyname/, CC BY-SA 4.0; its `wmn-data-schema.json`),
// read from USERNAME_SITES_FILE and validated with zod at start-up: a bad file stops the server and the worker
// (docs/features.md "Extra features").

/** The WhatsMyName category of adult sites, left out unless the visitor asks for them. */
export const NSFW_CATEGORY = 'xx NSFW xx';

const httpUrl = z.string().regex(/^https?:\/\/.+$/, 'an http(s) URL');

/** One site of the WhatsMyName data set (its `wmn-data-schema.json`, same required fields and rules). */
const siteSchema = z
  .strictObject({
    name: z.string().min(1),
    uri_check: httpUrl,
    uri_pretty: httpUrl.optional(),
    post_body: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    strip_bad_char: z.string().min(1).optional(),
    e_code: z.number().int().min(100).max(599),
    e_string: z.string(),
    m_string: z.string(),
    m_code: z.number().int().min(100).max(599),
    known: z.array(z.string().min(1)).min(1),
    cat: z.string(),
    valid: z.literal(false).optional(),
    protection: z.array(z.string()).min(1).optional(),
  })
  .superRefine((site, ctx) => {
    if (site.post_body) {
      if (!site.headers) ctx.addIssue({ code: 'custom', message: 'post_body needs headers' });
      if (!site.post_body.includes('{account}')) ctx.addIssue({ code: 'custom', message: 'post_body needs {account}' });
    } else if (!site.uri_check.includes('{account}')) {
      ctx.addIssue({ code: 'custom', message: 'uri_check needs {account}' });
    }
  });

const dataSetSchema = z
  .strictObject({
    license: z.array(z.string()).min(1),
    authors: z.array(z.string().min(1)).min(1),
    categories: z.array(z.string().min(1)).min(1),
    sites: z.array(siteSchema).min(1),
  })
  .superRefine((data, ctx) => {
    data.sites.forEach((site, i) => {
      if (!data.categories.includes(site.cat))
        ctx.addIssue({ code: 'custom', path: ['sites', i, 'cat'], message: `unknown category ${site.cat}` });
    });
  });

export type WmnSite = z.infer<typeof siteSchema>;
export type WmnDataSet = z.infer<typeof dataSetSchema>;

/**
 * Reads and validates a WhatsMyName data file. Throws an Error naming the file and every problem
 * (path and message, at most 10), so a bad file stops start-up with a clear message.
 */
export function loadSiteList(file: string): WmnDataSet {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`The WhatsMyName site list ${file} cannot be read: ${(error as Error).message}`);
  }
  const result = dataSetSchema.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.slice(0, 10).map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`The WhatsMyName site list ${file} is invalid:\n${lines.join('\n')}`);
  }
  return result.data;
}

let cached: { file: string; data: WmnDataSet } | undefined;

/** The configured site list (`USERNAME_SITES_FILE`, relative to the working directory), loaded once. */
export function siteList(): WmnDataSet {
  const file = path.resolve(env().USERNAME_SITES_FILE);
  if (cached?.file !== file) cached = { file, data: loadSiteList(file) };
  return cached.data;
}

/** The sites a lookup covers: those the data set marks valid, adult sites only when `includeNsfw`. */
export function sitesToCheck(includeNsfw: boolean): WmnSite[] {
  return siteList().sites.filter((s) => s.valid !== false && (includeNsfw || s.cat !== NSFW_CATEGORY));
}
