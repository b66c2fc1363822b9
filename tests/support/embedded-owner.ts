// A process that owns an embedded PostgreSQL, as `npm start` does: started by tests/database-ownership.test.ts with
// `tsx --conditions=react-server tests/support/embedded-owner.ts <dir> <port>`; prints "ready" once the database
// runs, and stops it on SIGTERM.
import { startEmbeddedPostgres } from '../../server/db/embedded';

const [dir, port] = process.argv.slice(2);
const db = await startEmbeddedPostgres(dir, Number(port));
console.log('ready');
process.once('SIGTERM', () => void db.stop().then(() => process.exit(0)));
