import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { translate } from '../../i18n';
import {
  changePassword,
  isRegistered,
  login,
  resetPassword,
  revokeSession,
  sendResetCode,
  type SessionUser,
} from '../../services/accounts';
import { undeliveredEmailsTo } from '../../services/messaging';
import { consume } from '../../services/rate-limit';
import type { AppEnv } from '../context';
import { notFound } from '../errors';
import { TOKEN_HEADER, requireSession } from '../middleware';
import { BAD_INPUT, envelope, fails, jsonResponse, ok } from '../respond';
import { clearBuyerCookies, setBuyerCookies } from '../session-cookies';
import {
  changePasswordBody,
  emailParams,
  loginBody,
  registeredSchema,
  resetPasswordBody,
  undeliveredEmailsSchema,
  messageOnlySchema,
  userInfoSchema,
  type UndeliveredEmail,
  type UserInfo,
} from '../../../lib/contracts/account';
import { bodyOf, readBody } from '../validation';

const messageOnly = envelope(messageOnlySchema);
const limited = { 429: 'Too many attempts; Retry-After says when to retry' } as const;

// POST /api_f/v1/admin/userSession - sign in
const loginRoute = createRoute({
  method: 'post',
  path: '/admin/userSession',
  summary:
    'Sign in with e-mail and password; sets the session cookies (`__Host-token` on an https origin, else `token`, and `userInfo`) and returns the token in the `_chamspy_token` header. Unknown e-mail, wrong password and an account locked after 100 failures in a row (unlocked by a reset code, the owner is e-mailed) answer alike (401).',
  request: { body: bodyOf(loginBody) },
  responses: {
    200: jsonResponse(envelope(userInfoSchema), 'Signed in'),
    ...fails({ 401: 'Wrong e-mail or password, or expired temporary password', ...limited, ...BAD_INPUT }),
  },
});

// DELETE /api_f/v1/admin/userSession - sign out
const logoutRoute = createRoute({
  method: 'delete',
  path: '/admin/userSession',
  summary: 'Sign out: revokes the session row and clears the cookies',
  middleware: [requireSession] as const,
  responses: { 200: jsonResponse(messageOnly, 'Signed out'), ...fails({ 401: 'No live session' }) },
});

// GET /api_f/v1/admin/userSession/current - the signed-in user's info
const currentRoute = createRoute({
  method: 'get',
  path: '/admin/userSession/current',
  summary: 'User info of the live session (also a restricted one); used by proxy.ts to validate a cookie',
  middleware: [requireSession] as const,
  responses: { 200: jsonResponse(envelope(userInfoSchema), 'User'), ...fails({ 401: 'No live session' }) },
});

// GET /api_f/v1/admin/userSession/{id} - user info by id (own id only)
const userRoute = createRoute({
  method: 'get',
  path: '/admin/userSession/{id}',
  summary: "User info; another user's id answers 404",
  middleware: [requireSession] as const,
  request: { params: z.object({ id: z.uuid() }) },
  responses: {
    200: jsonResponse(envelope(userInfoSchema), 'User'),
    ...fails({ 401: 'No live session', 404: 'Not yours' }),
  },
});

// GET /api_f/v1/admin/user/undeliveredEmails - e-mails to the account's address that have not arrived
const undeliveredRoute = createRoute({
  method: 'get',
  path: '/admin/user/undeliveredEmails',
  summary:
    "E-mails to the signed-in user's address that failed or wait for a retry: subject, when written, status (`queued` = will be tried again at `nextAttemptAt`; `failed` = gave up). Never the text.",
  middleware: [requireSession] as const,
  responses: {
    200: jsonResponse(envelope(undeliveredEmailsSchema), 'Undelivered e-mails, newest first'),
    ...fails({ 401: 'No live session' }),
  },
});

// PUT /api_f/v1/admin/user/password - change password
const changeRoute = createRoute({
  method: 'put',
  path: '/admin/user/password',
  summary:
    'Change the password (needs the current one, except in a session opened with the temporary password); other sessions are revoked and a notice e-mailed',
  middleware: [requireSession] as const,
  request: { body: bodyOf(changePasswordBody) },
  responses: {
    200: jsonResponse(messageOnly, "'Your password was changed.'"),
    ...fails({ 401: 'No session', ...BAD_INPUT }),
  },
});

// GET /api_f/v1/admin/userSession/forgetPassword/{email} - e-mail a reset code
const forgotRoute = createRoute({
  method: 'get',
  path: '/admin/userSession/forgetPassword/{email}',
  summary: 'E-mail a 6-digit reset code (15 minutes); answers the same whether or not the account exists',
  request: { params: emailParams },
  responses: { 200: jsonResponse(messageOnly, 'Accepted'), ...fails({ ...limited, ...BAD_INPUT }) },
});

// PUT /api_f/v1/admin/userSession/forgetPassword/{email} - reset the password with a code
const resetRoute = createRoute({
  method: 'put',
  path: '/admin/userSession/forgetPassword/{email}',
  summary:
    "Reset with code + new password ('Your password was reset…'); every session is revoked and the caller is signed in with a new one (the session cookies and the token header, as at sign-in). The 5th wrong code burns it; attempts are limited per IP (429).",
  request: { params: emailParams, body: bodyOf(resetPasswordBody) },
  responses: {
    200: jsonResponse(envelope(userInfoSchema), 'Reset and signed in'),
    ...fails({ ...limited, ...BAD_INPUT }),
  },
});

// PUT /api_f/v1/admin/userSession/restPassword/{email} - recover access: e-mail a code to choose a password
const temporaryRoute = createRoute({
  method: 'put',
  path: '/admin/userSession/restPassword/{email}',
  summary:
    'Recover access (docs/rules.md#api): e-mails a 6-digit code to choose a password (as forgetPassword); never replaces the working temporary password; answers the same either way',
  request: { params: emailParams },
  responses: { 200: jsonResponse(messageOnly, 'Accepted'), ...fails({ ...limited, ...BAD_INPUT }) },
});

// GET /api_f/v1/portal/user/checkEmail/{email} - is this e-mail registered?
const checkEmailRoute = createRoute({
  method: 'get',
  path: '/portal/user/checkEmail/{email}',
  summary: 'Whether an account exists for the e-mail (rate limited per IP)',
  request: { params: emailParams },
  responses: { 200: jsonResponse(envelope(registeredSchema), 'Answer'), ...fails({ ...limited, ...BAD_INPUT }) },
});

const meta = (c: {
  get(k: 'clientIp'): string | null;
  get(k: 'lang'): string;
  req: { header(n: string): string | undefined };
}) => ({
  ip: c.get('clientIp'),
  userAgent: c.req.header('user-agent') ?? null,
  locale: c.get('lang'),
});

/**
 * The session's user as the API answers it: a restricted session (opened with the temporary password) must change it;
 * the payment's own session chooses the first password without the temporary one (`firstPassword`,
 * services/accounts/sessions.ts).
 */
function userInfoOf(user: SessionUser): UserInfo {
  return {
    id: user.id,
    email: user.email,
    paymentCount: user.paymentCount,
    mustChangePassword: user.restricted,
    choosesFirstPassword: user.firstPassword && !user.restricted,
  };
}

export const accountsApi = new OpenAPIHono<AppEnv>()
  .openapi(loginRoute, async (c) => {
    const body = readBody(c, loginBody);
    const result = await login(await c.var.db(), body.email, body.password, meta(c));
    setBuyerCookies(c, result.token, result.user);
    c.header(TOKEN_HEADER, result.token);
    return ok(c, result.user satisfies UserInfo);
  })
  .openapi(logoutRoute, async (c) => {
    await revokeSession(await c.var.db(), c.get('user')!.sessionId);
    clearBuyerCookies(c);
    return ok(c, null, translate(c.get('lang'), 'Api.loggedOut'));
  })
  .openapi(currentRoute, (c) => ok(c, userInfoOf(c.get('user')!)))
  .openapi(userRoute, (c) => {
    const user = c.get('user')!;
    if (c.req.valid('param').id !== user.id) throw notFound();
    return ok(c, userInfoOf(user));
  })
  .openapi(undeliveredRoute, async (c) => {
    const rows = await undeliveredEmailsTo(await c.var.db(), c.get('user')!.email);
    return ok(
      c,
      rows.map((r) => ({
        subject: r.subject,
        createdAt: r.createdAt.toISOString(),
        status: r.status,
        nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
      })) satisfies UndeliveredEmail[],
    );
  })
  .openapi(changeRoute, async (c) => {
    const body = readBody(c, changePasswordBody);
    await changePassword(await c.var.db(), c.get('user')!, body.password, body.newPassword, c.get('lang'));
    return ok(c, null, translate(c.get('lang'), 'Api.passwordChanged'));
  })
  .openapi(forgotRoute, async (c) => {
    await sendResetCode(await c.var.db(), c.req.valid('param').email, c.get('lang'), c.get('clientIp'));
    return ok(c, null, translate(c.get('lang'), 'Api.codeSent'));
  })
  .openapi(resetRoute, async (c) => {
    const body = readBody(c, resetPasswordBody);
    await consume('resetsPerIp', c.get('clientIp') ?? 'unknown');
    const result = await resetPassword(
      await c.var.db(),
      c.req.valid('param').email,
      body.code,
      body.newPassword,
      meta(c),
    );
    setBuyerCookies(c, result.token, result.user);
    c.header(TOKEN_HEADER, result.token);
    return ok(c, result.user satisfies UserInfo, translate(c.get('lang'), 'Api.passwordReset'));
  })
  .openapi(temporaryRoute, async (c) => {
    // Never replaces a working temporary password: the owner gets a code to choose their own.
    await sendResetCode(await c.var.db(), c.req.valid('param').email, c.get('lang'), c.get('clientIp'));
    return ok(c, null, translate(c.get('lang'), 'Api.temporarySent'));
  })
  .openapi(checkEmailRoute, async (c) => {
    await consume('checkEmailPerIp', c.get('clientIp') ?? 'unknown');
    const registered = await isRegistered(await c.var.db(), c.req.valid('param').email);
    return ok(c, { registered }, translate(c.get('lang'), registered ? 'Api.emailRegistered' : 'Api.emailFree'));
  });
