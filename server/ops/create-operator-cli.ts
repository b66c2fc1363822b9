// `npm run ops:create-operator -- email`: creates an operator of the console /ops in DATABASE_URL (or
// the embedded database) and prints, once, a generated password and the TOTP secret with its otpauth:// URI to add to
// an authenticator app. Exit 2 on a bad address or an existing operator.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { getDbState } from '../db/client';
import { DomainError } from '../errors';
import { createOperator } from '../services/ops';

const { positionals } = parseArgs({ allowPositionals: true });
const email = positionals[0] ?? '';
if (!z.email().safeParse(email).success) {
  console.error('usage: npm run ops:create-operator -- operator@example.com');
  process.exit(2);
}
const { db, close } = await getDbState();
try {
  const created = await createOperator(db, email);
  console.log(
    [
      `Operator ${email.toLowerCase()} created. Shown once; keep them in a password manager.`,
      `  password:    ${created.password}`,
      `  TOTP secret: ${created.secret}`,
      `  otpauth URI: ${created.uri}`,
      'Sign in at /ops/ with the password and the 6-digit code of an authenticator app enrolled with the secret.',
    ].join('\n'),
  );
} catch (error) {
  await close();
  if (error instanceof DomainError && error.kind === 'conflict') {
    console.error(`An operator ${email.toLowerCase()} already exists.`);
    process.exit(2);
  }
  throw error;
}
await close();
process.exit(0);
