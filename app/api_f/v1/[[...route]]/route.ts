// /api_f/v1/* - mounts the Hono API (server/api/app.ts) on the Node runtime
import { handle } from 'hono/vercel';
import { createApp } from '@/server/api/app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handler = handle(createApp());

export {
  handler as GET,
  handler as POST,
  handler as PUT,
  handler as DELETE,
  handler as PATCH,
  handler as OPTIONS,
  handler as HEAD,
};
