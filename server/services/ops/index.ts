import 'server-only';

// The operator console's services (app/ops, routes under /ops), one module per desk. This index re-exports what
// the routes, the CLI and the tests import from `server/services/ops`.

export type { OperatorView } from './types';
export { createOperator, opsSignIn, findOperator, opsSignOut } from './operators';
export type { OpsSignInFailure } from './operators';
export { audit, auditLog } from './audit';
export { searchOrders, opsRefund, opsCancel } from './orders';
export { abuseOverview, addOptOut, removeOptOut } from './abuse';
export { undeliveredMessages, retryMessage } from './messages';
export { supportInbox, replySupport } from './support';
export { opsFunnel } from './funnel';
