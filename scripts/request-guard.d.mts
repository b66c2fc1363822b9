// Types of scripts/request-guard.mjs (plain JavaScript, run by node without a build step), for the tests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** The methods passed on to Next; any other answers 405 with them in `Allow`. */
export declare const ALLOWED_METHODS: string[];
/** Whether every `/`-separated segment of `pathname` decodes as %-encoded UTF-8. */
export declare function isDecodablePath(pathname: string): boolean;
/** Answers a request Next could not take (405 method, 400 path); true when it answered. */
export declare function guardRequest(req: IncomingMessage, res: ServerResponse): boolean;
/** The server's `connect` listener: 405 on the raw socket. */
export declare function refuseConnect(req: IncomingMessage, socket: Duplex): void;
