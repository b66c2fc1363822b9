export * from './client';
export type * from './types';
