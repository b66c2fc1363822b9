import 'server-only';
import type { ApiLanguage } from './i18n';

/** The signed-in user attached by the auth middleware. */
export type AuthUser = { id: string; email: string; paymentCount: number; sessionId: string };

/** Hono context variables shared by every route. */
export type AppEnv = {
  Variables: {
    lang: ApiLanguage;
    clientIp: string | null;
    user: AuthUser | null;
  };
};
