// `npm run db:migrate`: applies drizzle/ migrations to DATABASE_URL (or the embedded database) and exits.
import { getDbState } from './client';

const { url, close } = await getDbState();
console.log(`migrations applied to ${url.replace(/:[^:@/]+@/, ':***@')}`);
await close();
process.exit(0);
