import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { Cluster, api, waitFor, type Proc } from './cluster';

// Two app processes and a worker on one PostgreSQL, with an SMTP server. App A runs no jobs;
// app B runs them in-process, like the worker, so two job runners share the queue. The journey crosses the
// processes, then the faults are run: PostgreSQL restarted under load, SMTP down, SMTP hung.

test.describe.configure({ mode: 'serial', timeout: 300_000 });

const cluster = new Cluster();
let a: Proc;
let b: Proc;
let worker: Proc;
const runId = Date.now().toString(36);
let counter = 0;
/** Calls that failed (5xx or no answer) and were tried again: proof that the load met the database restart. */
let retried = 0;

/** A distinct valid US mobile-or-fixed number per order, so per-number SMS caps never interfere. */
function phone(): string {
  counter += 1;
  return `+1415${String(5_550_000 + ((Date.now() + counter * 7919) % 400_000)).padStart(7, '0')}`;
}

/** Orders on `orderOn` and pays on `payOn` (sandbox card), retrying while the database is away. */
async function buy(tag: string, orderOn: Proc, payOn: Proc, retryUntil = 0) {
  const email = `${tag}.${runId}.${(counter += 1)}@example.com`;
  const attempt = async <T>(fn: () => Promise<T & { status: number }>): Promise<T & { status: number }> => {
    for (;;) {
      const result = await fn().catch(() => ({ status: 0 }) as T & { status: number });
      if (result.status > 0 && result.status < 500) return result;
      if (Date.now() > retryUntil) return result;
      retried += 1;
      await new Promise((r) => setTimeout(r, 300));
    }
  };
  const order = await attempt(() =>
    api(orderOn, 'POST', '/portal/order', {
      body: { email, phone: phone(), requesterName: 'Anna (your sister)', terms: true, startNow: true },
    }),
  );
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const pay = await attempt(() =>
    api(payOn, 'POST', `/portal/order/${order.body.obj.code}/sandboxPay`, {
      body: { cardNumber: '4242424242424242', expiry: '12/34', cvc: '123', zip: '10001' },
    }),
  );
  expect(pay.status, JSON.stringify(pay.body)).toBe(200);
  return { email, code: order.body.obj.code as string, cookie: pay.cookie! };
}

/** Credentials e-mails received by the SMTP sink for `emails`. */
function credentialsFor(emails: string[]) {
  return cluster.smtp.received.filter((m) => emails.includes(m.to));
}

/** Consent SMS of the orders `codes` in the outbox, with their status. */
async function smsOf(codes: string[]) {
  return cluster.query<{ status: string; code: string }>(
    `select m.status, o.code from outbound_messages m
       join location_requests r on r.id = m.location_request_id
       join orders o on o.id = r.order_id
      where m.channel = 'sms' and o.code = any($1)`,
    [codes],
  );
}

test.beforeAll(async () => {
  await cluster.start();
  // Both apps start at once: the migrations run once under the advisory lock.
  [a, b] = await Promise.all([cluster.app('app-a'), cluster.app('app-b', { JOBS_IN_PROCESS: 'true' })]);
  worker = await cluster.worker();
});

test.afterAll(async () => {
  await cluster.close();
});

test('the journey across two app processes: order on one, pay on the other, shared sessions, limits and delivery', async () => {
  const bought = await Promise.all(Array.from({ length: 10 }, (_, i) => buy('journey', i % 2 ? a : b, i % 2 ? b : a)));
  const emails = bought.map((x) => x.email);

  // The session opened by one process is valid on the other.
  for (const { cookie } of bought.slice(0, 3)) {
    for (const proc of [a, b]) {
      expect((await api(proc, 'GET', '/admin/userSession/current', { cookie })).status).toBe(200);
    }
  }

  // Each credentials e-mail and each consent SMS goes out exactly once, whichever runner took the job.
  await waitFor('10 credentials e-mails', () => credentialsFor(emails).length >= 10);
  await waitFor('10 consent SMS sent', async () =>
    (await smsOf(bought.map((x) => x.code))).every((s) => s.status === 'sent'),
  );
  await new Promise((r) => setTimeout(r, 3_000));
  const mails = credentialsFor(emails);
  expect(mails).toHaveLength(10);
  expect(new Set(mails.map((m) => m.to)).size).toBe(10);
  expect(new Set(mails.map((m) => m.messageId)).size).toBe(10);
  expect(await smsOf(bought.map((x) => x.code))).toHaveLength(10);

  // Failed sign-ins are counted across both processes: the 11th wrong password from one address is limited.
  const statuses: number[] = [];
  for (let i = 0; i < 11; i += 1) {
    const proc = i % 2 ? a : b;
    statuses.push(
      (await api(proc, 'POST', '/admin/userSession', { body: { email: emails[0], password: 'wrong password' } }))
        .status,
    );
  }
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
  expect(statuses[10]).toBe(429);

  // Structured logs: JSON lines with a request id and the route pattern, and no e-mail address.
  const jsonLines = a.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const requestLine = jsonLines.find((l) => l.route === '/api_f/v1/portal/order');
  expect(requestLine).toMatchObject({ msg: 'request', status: 201, method: 'POST' });
  expect(String(requestLine!.reqId)).toMatch(/^[0-9a-f-]{36}$/);
  for (const proc of [a, b, worker]) {
    expect(proc.lines.join('\n')).not.toContain('@example.com');
  }
});

test("the live map across two app processes: the buyer's stream on one, the owner's share and fixes on the other", async () => {
  const bought = await buy('live', a, a);
  // The SMS body is redacted once sent, so the test gives the request a consent code it knows (stored as its hash).
  const consentCode = `live-${runId}-${'x'.repeat(24)}`;
  const [request] = await cluster.query<{ id: string }>(
    `update location_requests r set consent_code_hash = encode(sha256(convert_to($2, 'UTF8')), 'hex')
       from orders o where o.id = r.order_id and o.code = $1 returning r.id`,
    [bought.code, consentCode],
  );

  // The buyer's map on app B: the stream is answered by B's Node server (its request log says so).
  const stream = await fetch(`${b.url}/api_f/v1/gpsTrace/phoneLocation/${request.id}/live`, {
    headers: { cookie: bought.cookie },
  });
  expect(stream.status).toBe(200);
  expect(stream.headers.get('content-type')).toBe('text/event-stream');
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let pending: Promise<ReadableStreamReadResult<string>> | null = null;
  /** Reads the stream until its text matches `pattern` (10 s at most); one read is kept pending across waits. */
  const until = async (pattern: RegExp) => {
    const deadline = Date.now() + 10_000;
    while (!pattern.test(text) && Date.now() < deadline) {
      pending ??= reader.read();
      const result = await Promise.race([pending, new Promise<null>((r) => setTimeout(() => r(null), 500))]);
      if (!result) continue;
      pending = null;
      if (result.done) break;
      text += result.value;
    }
    return pattern.test(text);
  };
  expect(await until(/event: trace\n/)).toBe(true);
  await waitFor('the stream in the request log of app B', () =>
    b.lines.some(
      (l) => l.includes('"route":"/api_f/v1/gpsTrace/phoneLocation/:id/live"') && l.includes('"server":"node"'),
    ),
  );

  // The owner shares and moves, through app A: each fix reaches the stream on B.
  const put = (body: Record<string, unknown>) =>
    api(a, 'PUT', `/spyContent/phoneLocation/${consentCode}`, { body, ip: '81.2.69.142' });
  expect((await put({ action: 'share', minutes: 60, latitude: 52.52, longitude: 13.405, accuracy: 12 })).status).toBe(
    200,
  );
  expect(await until(/"latitude":52\.52/)).toBe(true);
  expect((await put({ action: 'position', latitude: 52.53, longitude: 13.405, accuracy: 12 })).status).toBe(200);
  expect(await until(/"latitude":52\.53/)).toBe(true);
  expect((await put({ action: 'stop' })).status).toBe(200);
  expect(await until(/"status":"stopped"/)).toBe(true);
  await reader.cancel();
});

test('PostgreSQL restarted under load: nothing is lost, no process dies, delivery resumes by itself', async () => {
  const before = cluster.smtp.received.length;
  const retryUntil = Date.now() + 60_000;
  const load = Promise.all(
    Array.from({ length: 10 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * 150));
      return buy('restart', i % 2 ? a : b, i % 2 ? b : a, retryUntil);
    }),
  );
  const [{ started: startedBefore }] = await cluster.query<{ started: string }>(
    'select pg_postmaster_start_time()::text as started',
  );
  await new Promise((r) => setTimeout(r, 500));
  await cluster.restartDatabase(1_500);
  const bought = await load;
  const [{ started: startedAfter }] = await cluster.query<{ started: string }>(
    'select pg_postmaster_start_time()::text as started',
  );
  expect(startedAfter).not.toBe(startedBefore);
  expect(retried, 'requests that met the restart').toBeGreaterThan(0);
  const emails = bought.map((x) => x.email);

  await waitFor(
    'credentials e-mails after the restart',
    () => new Set(credentialsFor(emails).map((m) => m.to)).size >= 10,
    // A row whose enqueue met the outage waits for the minute sweep (rows older than a minute): up to two minutes.
    150_000,
  );
  await waitFor(
    'consent SMS after the restart',
    async () => (await smsOf(bought.map((x) => x.code))).every((s) => s.status === 'sent'),
    150_000,
  ).catch(async (error: Error) => {
    const detail = await cluster.query(
      `select o.code, o.status as order_status, r.status as request_status, m.status, m.attempts, m.last_error,
              m.lease_until, m.next_attempt_at, m.created_at
         from orders o left join location_requests r on r.order_id = o.id
         left join outbound_messages m on m.location_request_id = r.id and m.channel = 'sms'
        where o.code = any($1)`,
      [bought.map((x) => x.code)],
    );
    const jobs = await cluster.query(`select name, state, count(*)::int from pgboss.job group by 1, 2 order by 1, 2`);
    throw new Error(
      `${error.message}\n${JSON.stringify(detail, null, 1)}\n${JSON.stringify(jobs)}\n${worker.lines.slice(-30).join('\n')}`,
    );
  });
  // At least once, never silently twice: a repeat (sent, then the record was lost) carries the same Message-ID.
  for (const email of emails) {
    const ids = new Set(credentialsFor([email]).map((m) => m.messageId));
    expect(ids.size).toBe(1);
  }
  expect(cluster.smtp.received.length).toBeGreaterThanOrEqual(before + 10);

  for (const proc of [a, b, worker]) {
    expect(proc.child.exitCode, `${proc.name} exited:\n${proc.lines.slice(-40).join('\n')}`).toBeNull();
    expect(proc.lines.join('\n')).not.toMatch(/uncaughtException|Unhandled 'error' event/);
  }
  // And they still serve.
  for (const proc of [a, b]) expect((await api(proc, 'GET', '/health')).status).toBe(200);
});

test('the minute jobs run once a minute in total, with two job runners', async () => {
  const perMinute = await waitFor(
    'two minutes of maintenance jobs',
    async () => {
      const rows = await cluster.query<{ minute: string; runs: number }>(
        `select date_trunc('minute', created_on)::text as minute, count(*)::int as runs
           from (select created_on, name from pgboss.job union all select created_on, name from pgboss.archive) j
          where name = 'locate-maintenance' group by 1 order by 1`,
      );
      return rows.length >= 2 ? rows : null;
    },
    150_000,
  );
  for (const row of perMinute) expect(row.runs, row.minute).toBe(1);
});

test('SMTP down: e-mails wait for a later attempt instead of failing, the account page and the console show them, an operator retries, and they leave within a minute once the server is back', async ({
  page,
}) => {
  await cluster.smtp.stop();
  const bought = await Promise.all([buy('outage', a, b), buy('outage', b, a)]);
  const emails = bought.map((x) => x.email);
  const rows = await waitFor('failed first attempts', async () => {
    const found = await cluster.query<{ id: string; status: string; attempts: number; wait_s: number }>(
      `select id, status, attempts, extract(epoch from next_attempt_at - now())::float8 as wait_s
         from outbound_messages where recipient = any($1) and template = 'order-credentials'`,
      [emails],
    );
    return found.length === 2 && found.every((r) => r.attempts >= 1 && r.status === 'queued') ? found : null;
  });
  // Not spent: the next attempt is seconds away (10 s, then 30 s, ± 20 %), and the row is not failed.
  for (const row of rows) expect(row.wait_s).toBeLessThan(40);

  // The buyer's account page says so (Spanish, on a phone), with the time of the next attempt.
  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .context()
    .addCookies([{ name: 'token', value: bought[0].cookie.slice('token='.length), url: a.url!, httpOnly: true }]);
  await page.goto(`${a.url}/es/dashboard/account/`);
  const notice = page.getByTestId('undelivered-emails');
  await expect(notice).toContainText('Un correo que te enviamos no ha llegado');
  await expect(notice).toContainText('Lo intentaremos de nuevo');
  await page.screenshot({ path: 'test-results/account-undelivered-es-390.png', fullPage: true });

  // The operator console lists them; an operator retries them (a new round of attempts; the server is still down).
  const opEmail = `ops.${runId}@example.com`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--conditions=react-server', 'server/ops/create-operator-cli.ts', opEmail],
    { env: { ...process.env, DATABASE_URL: cluster.databaseUrl } },
  );
  const password = /password: +(\S+)/.exec(stdout)![1];
  const secret = /TOTP secret: +(\S+)/.exec(stdout)![1];
  const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
  const signIn = await fetch(`${a.url}/api_f/v1/ops/session`, {
    method: 'POST',
    headers: { website_type: 'ops', 'content-type': 'application/json' },
    body: JSON.stringify({ email: opEmail, password, code }),
  });
  expect(signIn.status).toBe(200);
  const opsCookie = /ops_token=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')![0];
  const listed = (await api(b, 'GET', '/ops/messages', { cookie: opsCookie })).body.obj.messages as { id: string }[];
  for (const row of rows) expect(listed.map((m) => m.id)).toContain(row.id);

  for (const row of rows) {
    expect(
      (await api(b, 'POST', `/ops/messages/${row.id}/retry`, { cookie: opsCookie, body: { reason: 'SMTP down' } }))
        .status,
    ).toBe(200);
  }
  // A long outage: the back-off has reached hours. When the server answers again, the job runners' probe (every
  // 10 s while messages wait) makes everything waiting due at once; nobody has to retry by hand.
  await waitFor('the retried attempts to fail', async () => {
    const found = await cluster.query<{ n: number }>(
      `select count(*)::int as n from outbound_messages where id = any($1) and status = 'queued' and attempts >= 1`,
      [rows.map((r) => r.id)],
    );
    return found[0].n === rows.length;
  });
  await cluster.query(
    `update outbound_messages set attempts = 20, next_attempt_at = now() + interval '5 hours'
      where id = any($1) and status = 'queued'`,
    [rows.map((r) => r.id)],
  );
  await cluster.smtp.start();
  const back = Date.now();
  await waitFor('the e-mails after the server came back', () => credentialsFor(emails).length >= 2, 60_000);
  expect(Date.now() - back).toBeLessThan(60_000);
  await new Promise((r) => setTimeout(r, 2_000));
  expect(credentialsFor(emails)).toHaveLength(2);
});

test('a hung SMTP server does not slow pages or the API', async () => {
  await cluster.smtp.hang();
  // Deliveries start on both runners and wait on a server that never greets.
  const hung = await Promise.all([buy('hung', a, b), buy('hung', b, a), buy('hung', a, b)]);
  await waitFor('a delivery stuck on the hung server', async () => {
    const [row] = await cluster.query<{ n: number }>(
      `select count(*)::int as n from outbound_messages where recipient = any($1) and status = 'sending'`,
      [hung.map((x) => x.email)],
    );
    return row.n > 0;
  });
  const probe = async (url: string) => {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    return performance.now() - started;
  };
  const times: Record<string, number[]> = { price: [], page: [] };
  for (let i = 0; i < 8; i += 1) {
    times.price.push(await probe(`${b.url}/api_f/v1/portal/priceSetup`));
    times.page.push(await probe(`${b.url}/es/`));
    await new Promise((r) => setTimeout(r, 250));
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  expect(median(times.price)).toBeLessThan(1_000);
  expect(median(times.page)).toBeLessThan(1_000);
  // The hung attempts end within seconds (greeting timeout) and wait for their next try; none was sent.
  await waitFor(
    'the hung attempts to time out',
    async () => {
      const rows = await cluster.query<{ status: string; last_error: string | null }>(
        `select status, last_error from outbound_messages where recipient = any($1)`,
        [hung.map((x) => x.email)],
      );
      return rows.every((r) => r.status === 'queued' && /timeout|greeting/i.test(r.last_error ?? ''));
    },
    30_000,
  );
  await cluster.smtp.recover();
});
