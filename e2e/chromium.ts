import { existsSync } from 'node:fs';

/**
 * The browser the browser tests and the Lighthouse bench drive: Debian's Chromium when /usr/bin/chromium exists (this
 * workplace cannot download Playwright's), else undefined, which lets each tool pick its own.
 */
export const CHROMIUM_PATH = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;

/**
 * The flags it runs with in a container: no sandbox (root, no user namespaces), no GPU, and none of the background
 * traffic (component updates, sync, first-run pages) that would disturb a measurement or reach for the network.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
