// Sessions are the accounts domain's (server/services/accounts/sessions.ts, docs/decisions/0020-domain-folders.md).
// This file only passes on what services/live-streams.ts reads, so that the live-stream code, being changed on its
// own branch, need not change for the move; delete it once live-streams.ts imports services/accounts.
export { liveSessionOwners } from './accounts';
