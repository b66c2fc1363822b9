import 'server-only';

// The API's error type lives in server/errors.ts so that services can refuse with a status and a message key too.
export { ApiError, ErrorCode, notFound } from '../errors';
