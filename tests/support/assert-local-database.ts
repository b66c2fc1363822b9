/** Refuses to run tests against a database that is not on this machine (a guard against wiping a real one). */
export function assertLocalDatabase(url: string): void {
  const host = new URL(url).hostname;
  if (!['localhost', '127.0.0.1', '::1', '[::1]'].includes(host)) {
    throw new Error(`Refusing to run tests against non-local database host "${host}"`);
  }
}
