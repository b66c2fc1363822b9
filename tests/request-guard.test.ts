import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { guardRequest, isDecodablePath, refuseConnect } from '@/scripts/request-guard.mjs';

// scripts/start.mjs asks scripts/request-guard.mjs about every request before Next's handler: Next answers a path it
// cannot decode, and TRACE (which a WHATWG Request refuses), with a plain-text 500. Here the guard sits in front of a
// stand-in for Next, over real HTTP; e2e/site.spec.ts checks the same requests against the production server.

let server: Server;
let port: number;
/** How many requests reached the stand-in for Next. */
let passed = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (guardRequest(req, res)) return;
    passed++;
    res.end('next');
  }).on('connect', refuseConnect);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  // The refusals' warning lines would clutter the report; their content is checked below.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await new Promise((resolve) => server.close(resolve));
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One request over HTTP/1.1 with any method and a raw request-target. */
function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The raw answer to a request written on a socket as is (request-targets `http.request` would not send). */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    setTimeout(() => socket.end(), 500);
  });
}

describe('methods Next cannot take answer 405 with Allow', () => {
  it.each([['TRACE'], ['PROPFIND'], ['MKCOL'], ['COPY']])('%s / is a page 405', async (method) => {
    const res = await send(method, '/');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('This method is not allowed for this address.');
  });

  it.each([['TRACE'], ['PROPFIND']])('%s on an API path is a 405 envelope, localized', async (method) => {
    const res = await send(method, '/api_f/v1/health', { 'accept-language': 'id-ID,id;q=0.9,en;q=0.5' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toContain('GET');
    expect(JSON.parse(res.body)).toEqual({
      success: 0,
      code: 40500,
      msg: 'Metode ini tidak diizinkan untuk alamat ini.',
    });
  });

  it('CONNECT is answered 405, not dropped', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toContain('Allow: GET, HEAD');
  });

  it('OPTIONS * answers 204 with Allow', async () => {
    const answer = await raw('OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 204 /);
    expect(answer).toMatch(/Allow: GET, HEAD, POST/i);
  });
});

describe('paths that are not %-encoded UTF-8 answer 400', () => {
  it.each([['a%ZZb'], ['%ED%A0%80'], ['%E0%A4%A'], ['%C0%AF'], ['x%']])(
    '/api_f/v1/other/location/info/%s is a 400 envelope, localized',
    async (segment) => {
      const res = await send('GET', `/api_f/v1/other/location/info/${segment}?q=1`, { 'accept-language': 'es' });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(res.body)).toEqual({
        success: 0,
        code: 40000,
        msg: 'La solicitud contiene caracteres no permitidos.',
      });
    },
  );

  it('the ad-conversion path (/api_{hash}, rewritten to the API) answers in the envelope too', async () => {
    const res = await send('POST', '/api_%ZZ/');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ success: 0, code: 40000 });
  });

  it('a page answers a small HTML page in its locale', async () => {
    const res = await send('GET', '/es/faq/%E0%A4%A/');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<html lang="es">');
    expect(res.body).toContain('La solicitud contiene caracteres no permitidos.');
    expect(res.body).toContain('<a href="/es/">');
  });

  it('HEAD gets the status without a body', async () => {
    const res = await send('HEAD', '/api_f/v1/x/%ZZ');
    expect(res.status).toBe(400);
    expect(res.body).toBe('');
  });

  it('lets every decodable path and allowed method through to Next', async () => {
    const before = passed;
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/es/faq/'],
      ['GET', '/api_f/v1/other/location/info/%2B34612345678'],
      ['POST', '/api_f/v1/portal/order'],
      ['DELETE', '/api_f/v1/x/%00'],
      ['OPTIONS', '/api_f/v1/health'],
      ['GET', '/search/?q=%ZZ'],
      ['GET', '/%F0%9F%98%80/'],
    ]) {
      expect((await send(method, path)).body, `${method} ${path}`).toBe('next');
    }
    expect(passed - before).toBe(8);
  });

  it('isDecodablePath', () => {
    expect(isDecodablePath('/a/b%20c/')).toBe(true);
    expect(isDecodablePath('/a%2Fb')).toBe(true);
    expect(isDecodablePath('/a/%ED%A0%80')).toBe(false);
    expect(isDecodablePath('/a/%')).toBe(false);
  });
});

describe('each refusal is logged as one warning line without the path', () => {
  it('logs the method, the status and the kind of problem', async () => {
    const write = vi.mocked(process.stdout.write);
    write.mockClear();
    await send('GET', '/api_f/v1/other/location/info/%2B34612345678%ZZ?email=ann%40example.com');
    await send('TRACE', '/login/');
    const lines = write.mock.calls.map(([chunk]) => JSON.parse(String(chunk)));
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, method: 'GET', status: 400, problem: 'path', reqId: expect.any(String) }),
      expect.objectContaining({ level: 40, method: 'TRACE', status: 405, problem: 'method' }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/34612345678|example|login/);
  });
});
