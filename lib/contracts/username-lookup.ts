import { z } from 'zod';
import { formBoolean, usernameBody } from './fields';

/**
 * The reverse username lookup's contract (`/usernameLookup*`): each body and answer once, as zod schemas, for the
 * route (server/api/routes/username-lookup.ts), the service (server/services/lookups/username-lookup.ts), the verdict
 * rule (lib/username-verdict.ts) and the page. docs/decisions/0010-one-contract-per-payload.md.
 */

/** The path of a lookup: its unguessable id. */
export const lookupIdParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

/** `POST /usernameLookup`'s body. */
export const startLookupBody = z.object({
  username: usernameBody,
  /** Adult sites (the data set's NSFW category) are left out unless asked for. */
  nsfw: formBoolean.default(false),
});

/** `POST /usernameLookup`'s answer: the lookup's id and how many sites it covers. */
export const startedLookupSchema = z.object({ id: z.string(), total: z.number() });
export type StartedLookup = z.infer<typeof startedLookupSchema>;

/** `GET /usernameLookup/{id}`: a lookup's progress and the profiles found so far. */
export const usernameLookupSchema = z.object({
  username: z.string(),
  status: z.enum(['running', 'stopped', 'done', 'capped']).meta({
    description:
      'stopped: by the visitor; capped: the hourly budget of outbound requests (USERNAME_LOOKUP_FETCHES_PER_HOUR) ran out before every site was asked',
  }),
  includeNsfw: z.boolean(),
  total: z.number().meta({ description: 'sites the lookup covers' }),
  checked: z.number().meta({ description: 'sites that answered so far (found, not found or unknown)' }),
  notChecked: z.number().meta({ description: 'sites never asked, once the lookup is over (0 while it runs)' }),
  unknown: z.number().meta({ description: 'answers that fit neither rule (errors, time-outs, blocked)' }),
  found: z.array(z.object({ site: z.string(), category: z.string(), url: z.string() })).meta({
    description:
      'the profiles found so far, by site name: filled in as sites answer while the lookup runs, so a page can show them before the end',
  }),
  expiresAt: z.string().meta({ description: 'the result is deleted after this (an hour after the start)' }),
});
export type UsernameLookupView = z.infer<typeof usernameLookupSchema>;
