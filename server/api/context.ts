import 'server-only';
import type { ApiLanguage } from '../i18n';
import type { SessionUser } from '../services/sessions';

/** Hono context variables shared by every route. */
export type AppEnv = {
  Variables: {
    lang: ApiLanguage;
    /** The request's id in logs and the `X-Request-Id` header (middleware requestLog). */
    requestId: string;
    clientIp: string | null;
    /** The live session's user, or null (no token, a dead token, or cookie and header naming different users). */
    user: SessionUser | null;
    /** A token was presented but is not usable: requireUser answers 'session invalid' rather than 'not logged in'. */
    tokenRejected: boolean;
  };
};
