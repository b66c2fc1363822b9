// Accounts: who may sign in, and how (docs/security.md "Accounts" and "Sign-in and passwords", docs/rules.md
// "Validation", "Limits" and "Security"; docs/decisions/0001-session-is-an-httponly-cookie.md and
// 0002-passwords-8-to-64-characters.md). Sign-in with its limits and lock, a change of password, the reset code, the
// password policy and its argon2id hashes, and the sessions. Every write of the `users` table's password columns, of
// `password_reset_codes` and of `sessions` is in this folder, save the account and first session a payment creates
// (services/billing, with `hashPassword` and `createSession` from here) and the operators' own passwords (services/ops).
//
// This file is the one entry the rest of the app imports:
// - ./accounts.ts: registration checks, sign-in, a change of password;
// - ./password-reset.ts: the e-mailed code and the reset;
// - ./passwords.ts: the policy, Pwned Passwords, argon2id;
// - ./sessions.ts: the buyer's sessions, on the one session module (services/sessions.ts, kind `buyer`).
// Shared random-string and hashing helpers stay in services/tokens.ts: billing, consent and the safety centre use them.
export { LOGIN_LOCK_AFTER_FAILURES, accountIdOf, changePassword, emailKey, isRegistered, login } from './accounts';
export { resetPassword, sendResetCode } from './password-reset';
export { TEMP_PASSWORD_TTL_MS, hashPassword, verifyPassword } from './passwords';
export { createSession, liveSessionOwners, revokeSession, sessionUserOf, type SessionUser } from './sessions';
