// /api_f/v1/* - mounts the Hono API (server/api/app.ts) on the Node runtime
import { handle } from 'hono/vercel';
import { createApp } from '@/server/api/app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const api = handle(createApp());

/**
 * The API handler. A request rewritten here from `/api_{hash}` (next.config rewrites: the ad-conversion endpoint of
 * SPEC §7) still carries its public URL, so it is given the API path `/api_f/v1/adEvents/{hash}` first.
 */
function handler(req: Request): Response | Promise<Response> {
  const url = new URL(req.url);
  const adEvent = /^\/api_(?!f\/)([^/]+)\/?$/.exec(url.pathname);
  if (!adEvent) return api(req);
  url.pathname = `/api_f/v1/adEvents/${adEvent[1]}`;
  return api(new Request(url, req));
}

export {
  handler as GET,
  handler as POST,
  handler as PUT,
  handler as DELETE,
  handler as PATCH,
  handler as OPTIONS,
  handler as HEAD,
};
