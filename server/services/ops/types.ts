import 'server-only';

// Shapes the operator console's services share.

/** The operator as the console sees them: never the password hash or the TOTP secret. */
export type OperatorView = { id: string; email: string; sessionId: string };
