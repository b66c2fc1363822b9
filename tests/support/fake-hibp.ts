import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A breach in the shape HIBP API v3 answers `breachedaccount?truncateResponse=false` with (its documented model). */
export function hibpBreach(
  name: string,
  breachDate: string,
  dataClasses: string[],
  extra: Record<string, unknown> = {},
) {
  return {
    Name: name,
    Title: name,
    Domain: `${name.toLowerCase()}.example`,
    BreachDate: breachDate,
    AddedDate: `${breachDate}T00:00:00Z`,
    ModifiedDate: `${breachDate}T00:00:00Z`,
    PwnCount: 152445165,
    Description: `In ${breachDate.slice(0, 4)}, <a href="https://${name}.example">${name}</a> was breached.`,
    LogoPath: `https://haveibeenpwned.com/Content/Images/PwnedLogos/${name}.png`,
    DataClasses: dataClasses,
    IsVerified: true,
    IsFabricated: false,
    IsSensitive: false,
    IsRetired: false,
    IsSpamList: false,
    IsMalware: false,
    IsSubscriptionFree: false,
    IsStealerLog: false,
    ...extra,
  };
}

/**
 * A local fake of the two Have I Been Pwned endpoints we call, with the response shapes of the API v3
 * docs: `GET /api/v3/breachedaccount/{account}` (needs `HIBP-API-Key: key`; 404 when the account has no breaches; 401
 * for a wrong key) and `GET /range/{prefix}` of Pwned Passwords (`SUFFIX:COUNT` lines, padded with `:0` lines when
 * `Add-Padding: true`). Tests set `accounts` and `pwned` (plain passwords), read `requests`, and set `mode` to make
 * the service fail (`down`: 503, `limited`: 429 with Retry-After).
 */
export class FakeHibp {
  readonly key = 'fake-hibp-key-0123456789abcdef';
  accounts = new Map<string, unknown[]>();
  pwned = new Set<string>();
  requests: { path: string; key: string | undefined; userAgent: string | undefined; padding: boolean }[] = [];
  mode: 'ok' | 'down' | 'limited' = 'ok';
  /** While set, every request is recorded at once but answered only when this promise settles (a slow service). */
  hold: Promise<void> | null = null;
  private server: Server | undefined;

  /** The base URLs to set as HIBP_API_URL and PWNED_PASSWORDS_URL. */
  get urls() {
    const { port } = this.server!.address() as AddressInfo;
    return { api: `http://127.0.0.1:${port}/api/v3`, passwords: `http://127.0.0.1:${port}` };
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      this.requests.push({
        path: url.pathname + url.search,
        key: req.headers['hibp-api-key'] as string | undefined,
        userAgent: req.headers['user-agent'],
        padding: req.headers['add-padding'] === 'true',
      });
      void (this.hold ?? Promise.resolve()).then(() => this.answer(req, res, url));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  private answer(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (this.mode === 'down') return void res.writeHead(503).end('Service Unavailable');
    if (this.mode === 'limited') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
      return void res.end(
        JSON.stringify({ statusCode: 429, message: 'Rate limit is exceeded. Try again in 2 seconds.' }),
      );
    }
    const account = /^\/api\/v3\/breachedaccount\/([^/]+)$/.exec(url.pathname);
    if (account) {
      if (req.headers['hibp-api-key'] !== this.key) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ statusCode: 401, message: 'Access denied due to invalid hibp-api-key.' }));
      }
      const found = this.accounts.get(decodeURIComponent(account[1]).toLowerCase());
      if (!found?.length) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(found));
    }
    const range = /^\/range\/([0-9A-Fa-f]{5})$/.exec(url.pathname);
    if (range) {
      const prefix = range[1].toUpperCase();
      const lines = [...this.pwned]
        .map((p) => createHash('sha1').update(p).digest('hex').toUpperCase())
        .filter((h) => h.startsWith(prefix))
        .map((h) => `${h.slice(5)}:${1234}`);
      if (req.headers['add-padding'] === 'true') lines.push('0000000000000000000000000000000000A:0');
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(lines.join('\r\n'));
    }
    res.writeHead(404).end();
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
