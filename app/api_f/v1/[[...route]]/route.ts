// /api_f/v1/* - mounts the Hono API (server/api/app.ts) on the Node runtime
import { handle } from 'hono/vercel';
import { createApp } from '@/server/api/app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const api = handle(createApp());

/**
 * The API handler. A request rewritten here from `/api_{hash}` (next.config rewrites: the ad-conversion endpoint of
 * docs/rules.md#api) still carries its public URL, so it is given the API path `/api_f/v1/adEvents/{hash}` first. Every other
 * request goes straight to the API, its URL not parsed again.
 */
function handler(req: Request): Response | Promise<Response> {
  // The path starts at the first `/` after the scheme's `//` (an absolute URL, as Request.url always is).
  if (req.url.startsWith('/api_f/', req.url.indexOf('/', req.url.indexOf('//') + 2))) return api(req);
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
