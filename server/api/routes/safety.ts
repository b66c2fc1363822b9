import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { translate } from '../../i18n';
import { assertNotLimited, consume } from '../../services/rate-limit';
import {
  canBlockEveryone,
  blockEveryone,
  blockRequester,
  closeSession,
  eraseShared,
  reportRequest,
  safetyOverview,
  sendSafetyCode,
  canUndoBlocks,
  sessionFromConsentCode,
  sessionOf,
  stopEverything,
  unblockEveryone,
  unblockRequester,
  verifySafetyCode,
  type SafetyMeta,
} from '../../services/safety';
import type { AppEnv } from '../context';
import { readBrowserKey } from '../offer-browser-cookie';
import { onRequesterSide } from '../../services/locate';
import { ApiError, ErrorCode, notFound } from '../errors';
import { e164Of } from '../phone';
import { BAD_INPUT, envelope, fails, jsonResponse, ok } from '../respond';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../session-cookies';
import { bodyOf, readBody } from '../validation';
import {
  codeEntryBody,
  consentEntryBody,
  safetyActionBody,
  safetyActionResultSchema,
  safetyCodeBody,
  safetyOverviewSchema,
  safetySessionSchema,
  type SafetyOverview,
} from '../../../lib/contracts/safety';
import { linkSentSchema } from '../../../lib/contracts/billing';
import type { Locale } from '../../../i18n/routing';
import { LOCALE_COUNTRY } from '../../../lib/phone-country';
import type { E164 } from '../../../lib/contracts/phone';
import { clientKey } from '../../services/client-ip';

// The phone owner's safety centre (services/safety.ts): every call but the three entries needs the safety-centre
// session cookie, which opens one number's centre for 30 minutes and nothing else (never a buyer session).

const sessionAnswer = envelope(safetySessionSchema);

// POST /api_f/v1/safety/session/consent - open the centre with a consent code
const consentEntryRoute = createRoute({
  method: 'post',
  path: '/safety/session/consent',
  summary:
    "Opens the safety centre of the number a consent code (from the SMS link) was sent to: holding the link proves the number's SMS. Sets the HttpOnly safety-centre cookie (30 minutes). Unknown codes answer 404 and spend the per-IP guessing limit, like the consent page.",
  request: { body: bodyOf(consentEntryBody) },
  responses: { 200: jsonResponse(sessionAnswer, 'Session opened'), ...fails({ 404: 'Unknown code', ...BAD_INPUT }) },
});

// POST /api_f/v1/safety/code - send a one-time code by SMS
const codeRoute = createRoute({
  method: 'post',
  path: '/safety/code',
  summary:
    "Sends the number's 6-digit one-time code (10 minutes from its last sending, 5 tries for all clients) by SMS, in the page's language, to a number we already sent a consent SMS to; asked again while it works, the same code is sent again. A number on the opt-out list gets it only when asked from a safety-centre session of that number (its consent link). The answer, and the work behind it, is the same whether or not the number is known. Limited per client address (10 an hour), per number and address (3 a day) and per number (10 a day); 429 says the wait in words (docs/decisions/0016-safety-code-limits.md).",
  request: { body: bodyOf(safetyCodeBody) },
  responses: {
    200: jsonResponse(envelope(linkSentSchema), 'Accepted'),
    ...fails(BAD_INPUT),
  },
});

// POST /api_f/v1/safety/session - open the centre with the one-time code
const codeEntryRoute = createRoute({
  method: 'post',
  path: '/safety/session',
  summary:
    'Opens the safety centre with the one-time code sent by SMS (sets the HttpOnly safety-centre cookie, 30 minutes). A code that is not 6 digits answers 422 with the Validation.code* message; a wrong, used or ended code 422 `Api.safetyCodeInvalid`; 5 wrong tries end the code for every client. Rate limited per IP.',
  request: {
    body: bodyOf(codeEntryBody),
  },
  responses: { 200: jsonResponse(sessionAnswer, 'Session opened'), ...fails(BAD_INPUT) },
});

// DELETE /api_f/v1/safety/session - leave (quick exit)
const leaveRoute = createRoute({
  method: 'delete',
  path: '/safety/session',
  summary: 'Ends the safety-centre session and clears its cookie (the quick exit and Leave). Always 200.',
  responses: { 200: jsonResponse(envelope(z.object({ left: z.literal(true) })), 'Left') },
});

// GET /api_f/v1/safety - the number's requests
const overviewRoute = createRoute({
  method: 'get',
  path: '/safety',
  summary:
    "Every request made to the session's number, newest first, with who asked, the state, how long it shared, the requester's map views and a reference per request; and whether the number is on the opt-out list. 401 without a live safety-centre session.",
  responses: {
    200: jsonResponse(envelope(safetyOverviewSchema), 'Overview'),
    ...fails({ 401: 'No safety-centre session' }),
  },
});

// POST /api_f/v1/safety/actions - what the owner does
const actionRoute = createRoute({
  method: 'post',
  path: '/safety/actions',
  summary:
    "The owner's actions on the session's number: stop_all (every share ends as stopped by the owner, every pending request is declined, each recorded as on the consent page), block / unblock (one requester: new requests and links refused before any SMS), block_all / unblock_all (the opt-out list; unblock, block_all and unblock_all need a session opened with an SMS code, 403 otherwise: the requester may hold the consent link too, and must neither lift a block nor shut the number to every other requester), erase (a request's positions deleted; its consent records stay), report (as the consent page's report; answers the request's reference). A request of another number answers 404; no session 401.",
  request: { body: bodyOf(safetyActionBody) },
  responses: {
    200: jsonResponse(envelope(safetyActionResultSchema), 'Done'),
    ...fails({ 401: 'No safety-centre session', 404: 'Not a request of this number', ...BAD_INPUT }),
  },
});

/** The session's number and how it was opened, or 401 `Api.safetySessionEnded`. */
async function sessionFrom(c: Context<AppEnv>) {
  const session = await sessionOf(await c.var.db(), readSessionCookie(c, 'safety'));
  if (!session) throw new ApiError(401, ErrorCode.notLoggedIn, 'Api.safetySessionEnded');
  return session;
}

/** The message of a refused code ask: the wait in words ("in about an hour"), messages/{en,es,id}.json. */
const CODE_WAIT = 'Api.safetyCodesWait';

/**
 * The E.164 number of a code form's `phone`: a national number is read in `country`, else in the country of the
 * page's `locale` (lib/phone-country.ts `LOCALE_COUNTRY`), as the home page's locate box does. 400 with the
 * `Validation.phone*` message when it is refused (server/api/phone.ts).
 */
function phoneOf(body: { phone: string; country?: string; locale?: Locale }): E164 {
  return e164Of(body.phone, body.country ?? (body.locale ? LOCALE_COUNTRY[body.locale] : undefined));
}

/** Sets the cookie of a session just opened and answers its end. */
function opened(c: Context<AppEnv>, session: { token: string; expiresAt: Date }) {
  setSessionCookie(c, 'safety', session.token);
  return ok(c, { expiresAt: session.expiresAt.toISOString() });
}

export const safetyApi = new OpenAPIHono<AppEnv>()
  .openapi(consentEntryRoute, async (c) => {
    const { code } = readBody(c, consentEntryBody);
    const ip = c.get('clientIp') ?? 'unknown';
    await assertNotLimited('consentMissPerIp', ip);
    const session = await sessionFromConsentCode(await c.var.db(), code);
    if (!session) {
      await consume('consentMissPerIp', ip);
      throw notFound();
    }
    return opened(c, session);
  })
  .openapi(codeRoute, async (c) => {
    const body = readBody(c, safetyCodeBody);
    const e164 = phoneOf(body);
    const ip = c.get('clientIp') ?? 'unknown';
    // Per address first, so that an address past its share spends nothing of the number's ceiling
    // (docs/decisions/0016-safety-code-limits.md).
    await consume('safetyCodesPerIp', ip, CODE_WAIT);
    await consume('safetyCodesPerNumberAddress', `${e164}|${clientKey(ip)}`, CODE_WAIT);
    await consume('safetyCodesPerNumber', e164, CODE_WAIT);
    const db = await c.var.db();
    // Asked from a session of this number (its consent link, or a code): an opted-out number may get the code — but
    // not asked from the requester's side of a link session (the requester holds the link too).
    const session = await sessionOf(db, readSessionCookie(c, 'safety'));
    const ownerLink =
      session?.e164 === e164 &&
      !(
        session.requesterId &&
        (await onRequesterSide(db, session.requesterId, e164, {
          sessionUserId: c.get('user')?.id ?? null,
          browserKey: readBrowserKey(c),
        }))
      );
    await sendSafetyCode(db, e164, body.locale ?? c.get('lang'), { ownerLink });
    return ok(c, { sent: true as const });
  })
  .openapi(codeEntryRoute, async (c) => {
    const body = readBody(c, codeEntryBody);
    const e164 = phoneOf(body);
    await consume('safetyChecksPerIp', c.get('clientIp') ?? 'unknown');
    const session = await verifySafetyCode(await c.var.db(), e164, body.code);
    if (!session) throw new ApiError(422, ErrorCode.validation, 'Api.safetyCodeInvalid', {}, { field: 'code' });
    return opened(c, session);
  })
  .openapi(leaveRoute, async (c) => {
    await closeSession(await c.var.db(), readSessionCookie(c, 'safety'));
    clearSessionCookie(c, 'safety');
    return ok(c, { left: true as const });
  })
  .openapi(overviewRoute, async (c) => {
    const { e164, via, requesterId } = await sessionFrom(c);
    return ok(c, {
      ...(await safetyOverview(await c.var.db(), e164, new Date(), requesterId)),
      canUndoBlocks: canUndoBlocks(via),
      canBlockEveryone: canBlockEveryone(via),
    } satisfies SafetyOverview);
  })
  .openapi(actionRoute, async (c) => {
    const body = readBody(c, safetyActionBody);
    const { e164, via, requesterId } = await sessionFrom(c);
    if ((body.action === 'unblock' || body.action === 'unblock_all') && !canUndoBlocks(via))
      throw new ApiError(403, ErrorCode.forbidden, 'Api.safetyUndoNeedsCode');
    if (body.action === 'block_all' && !canBlockEveryone(via))
      throw new ApiError(403, ErrorCode.forbidden, 'Api.safetyBlockAllNeedsCode');
    const db = await c.var.db();
    const lang = c.get('lang');
    // The consent records keep a hash of what the owner confirmed, in the page's language, as on the consent page.
    const meta = (key: string): SafetyMeta => ({
      ip: c.get('clientIp'),
      userAgent: c.req.header('user-agent') ?? null,
      shownText: translate(lang, `Safety.${key}`),
    });
    const found = <T>(value: T | null | false): T => {
      if (value === null || value === false) throw notFound();
      return value;
    };
    switch (body.action) {
      case 'stop_all': {
        const { stopped, declined } = await stopEverything(db, e164, meta('stopAllConfirm'), requesterId);
        return ok(c, { action: body.action, stopped, declined });
      }
      case 'block':
        found(await blockRequester(db, e164, body.requestId, meta('blockConfirm'), requesterId));
        return ok(c, { action: body.action });
      case 'unblock':
        found(await unblockRequester(db, e164, body.requestId));
        return ok(c, { action: body.action });
      case 'block_all':
        await blockEveryone(db, e164);
        return ok(c, { action: body.action, optedOut: true });
      case 'unblock_all':
        return ok(c, { action: body.action, optedOut: !(await unblockEveryone(db, e164)) });
      case 'erase': {
        const erased = found(await eraseShared(db, e164, body.requestId, meta('eraseConfirm'), requesterId));
        return ok(c, { action: body.action, deleted: erased.deleted });
      }
      case 'report': {
        const reported = found(
          await reportRequest(db, e164, body.requestId, body.reason, meta('reportConfirm'), requesterId),
        );
        return ok(c, { action: body.action, reference: reported.reference });
      }
    }
  });
