export * from './accounts';
export * from './billing';
export * from './locate';
export * from './messages';
export * from './tracking';
export * from './ops';
export * from './lookups';
export * from './withdrawals';
