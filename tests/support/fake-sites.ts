import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The one account that exists on every fake site. */
export const EXISTING = 'alice';

/**
 * An account most fake sites fail for, as when the lookup's network reaches almost nothing: every site but the
 * status-code ones (`/code/`, which answer "not found") drops the connection without an answer.
 */
export const UNREACHABLE = 'offline-ghost';

/** The fast sites on which EXISTING is found, in the order a lookup lists its finds (by site name). */
export const FOUND_SITES = ['Api', 'Codes', 'Dotless', 'Moved', 'Redirects', 'Strings'];

/**
 * A few fake public sites for the reverse username lookup, one per detection rule of the WhatsMyName
 * data set and per hazard, listening on 127.0.0.1. `fakeSiteList(base)` is the matching data set. Records how many
 * requests were in flight at most (`maxInFlight`), the paths asked (`paths`) and the cookies and user agents sent.
 */
export class FakeSites {
  paths: string[] = [];
  cookies: (string | undefined)[] = [];
  userAgents: (string | undefined)[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** How long the `/slow/` site waits before answering (ms). */
  slowMs = 3000;
  private server: Server | undefined;

  get base(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(port = 0): Promise<void> {
    this.server = createServer(async (req, res) => {
      const url = new URL(req.url!, 'http://x');
      this.paths.push(url.pathname);
      this.cookies.push(req.headers.cookie);
      this.userAgents.push(req.headers['user-agent']);
      // In flight until the connection closes: an answer sent, or the client gave up.
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      res.on('close', () => this.inFlight--);
      let body = '';
      for await (const chunk of req) body += chunk;
      // Every answer takes a little while, so parallel requests overlap.
      await new Promise((r) => setTimeout(r, 40));
      const [, kind, name = ''] = url.pathname.split('/');
      const user = decodeURIComponent(name);
      const exists = user === EXISTING;
      if ((user === UNREACHABLE || body.includes(UNREACHABLE)) && kind !== 'code') return void res.destroy();
      const send = (status: number, text: string, headers: Record<string, string> = {}) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(text);
      };
      switch (kind) {
        case 'code': // e_code 200 + e_string, m_code 404
          return exists ? send(200, `<div class="profile-card">${user}</div>`) : send(404, 'Not Found');
        case 'string': // same status, told apart by the strings
          return send(200, exists ? `<title>${user} | Strings</title>` : '<p>This user does not exist.</p>');
        case 'redirect-missing': // a missing user is redirected to the login page: m_code 302
          return exists ? send(200, '<h1 class="user">profile</h1>') : send(302, '', { location: '/login' });
        case 'moved': // a redirect that means nothing: followed to the real page
          return send(301, '', { location: `/code/${name}` });
        case 'to-private': // a redirect into the server's own network
          return send(302, '', { location: 'http://169.254.169.254/latest/meta-data/' });
        case 'loop':
          return send(302, '', { location: `/loop/${name}` });
        case 'slow':
          await new Promise((r) => setTimeout(r, this.slowMs));
          return send(200, `<div class="profile-card">${user}</div>`);
        case 'broken':
          return send(500, 'Internal Server Error');
        case 'api': // POST with a JSON body
          return send(200, JSON.parse(body || '{}').username === EXISTING ? '{"taken":true}' : '{"taken":false}');
        default:
          return send(404, 'Not Found');
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A WhatsMyName-shaped data set naming the fake sites at `base` (one of them in the NSFW category). */
export function fakeSiteList(base: string) {
  const site = (name: string, extra: Record<string, unknown>) => ({
    name,
    e_code: 200,
    e_string: 'profile-card',
    m_code: 404,
    m_string: 'Not Found',
    known: [EXISTING],
    cat: 'social',
    ...extra,
  });
  return {
    license: ['Test data in the WhatsMyName format'],
    authors: ['tests'],
    categories: ['social', 'coding', 'xx NSFW xx'],
    sites: [
      site('Codes', { uri_check: `${base}/code/{account}`, uri_pretty: `https://codes.example/{account}` }),
      site('Strings', {
        uri_check: `${base}/string/{account}`,
        e_string: '| Strings</title>',
        m_code: 200,
        m_string: 'does not exist',
        cat: 'coding',
      }),
      site('Redirects', {
        uri_check: `${base}/redirect-missing/{account}`,
        e_string: 'class="user"',
        m_code: 302,
        m_string: '',
      }),
      site('Moved', { uri_check: `${base}/moved/{account}` }),
      site('Dotless', { uri_check: `${base}/code/{account}`, strip_bad_char: '.' }),
      site('Api', {
        uri_check: `${base}/api`,
        uri_pretty: 'https://api.example/u/{account}',
        post_body: '{"username":"{account}"}',
        headers: { 'Content-Type': 'application/json' },
        e_string: '"taken":true',
        m_code: 200,
        m_string: '"taken":false',
      }),
      site('Private', { uri_check: `${base}/to-private/{account}` }),
      site('Loop', { uri_check: `${base}/loop/{account}` }),
      site('Slow', { uri_check: `${base}/slow/{account}` }),
      site('Broken', { uri_check: `${base}/broken/{account}` }),
      site('Retired', { uri_check: `${base}/code/{account}`, valid: false }),
      site('Adult', { uri_check: `${base}/code/{account}`, cat: 'xx NSFW xx' }),
    ],
  };
}
