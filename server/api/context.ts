import 'server-only';
import type { Db } from '../db/client';
import type { ApiLanguage } from '../i18n';
import type { SessionUser } from '../services/accounts';

/** The database handle routes pass to services (server/db/client.ts). */
export type { Db };

/**
 * Hono context variables shared by every route (set by requestContext, server/api/middleware.ts). A route takes the
 * database and the signed-in user from here: it never imports server/db (rule `routes-no-db` in
 * .dependency-cruiser.cjs), and queries live in server/services.
 */
export type AppEnv = {
  Variables: {
    /** The database (server/db/client.ts `getDb`), opened on first use: `const db = await c.var.db()`. */
    db: () => Promise<Db>;
    lang: ApiLanguage;
    /** The request's id in logs and the `X-Request-Id` header (hono/request-id, middleware requestIdentity). */
    requestId: string;
    clientIp: string | null;
    /** The live session's user, or null (no token, a dead token, or cookie and header naming different users). */
    user: SessionUser | null;
    /** A token was presented but is not usable: requireUser answers 'session invalid' rather than 'not logged in'. */
    tokenRejected: boolean;
  };
};
