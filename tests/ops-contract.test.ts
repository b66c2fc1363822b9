import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { OPS_ANSWERS } from '@/lib/contracts/ops';
import { getDb } from '@/server/db/client';
import { createOperator } from '@/server/services/ops';
import { API, app, clientHeaders } from './support/api';
import { nextIp, uniqueEmail } from './support/accounts';

// The operator console in the API's route kit (docs/decisions/0024-console-in-the-route-kit.md): its routes are
// exactly the contract's calls, their document is for operators only, and its refusals are the API's.

async function signedIn() {
  const email = uniqueEmail('op-contract');
  const created = await createOperator(await getDb(), email);
  const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(created.secret) });
  const res = await app.request(`${API}/ops/session`, {
    method: 'POST',
    headers: { ...clientHeaders, 'x-peer-ip': nextIp(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: created.password, code: code.generate() }),
  });
  expect(res.status).toBe(200);
  return /ops_token=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
}

describe("the operator console's contract", () => {
  it('keeps the console out of the public OpenAPI document', async () => {
    const doc = await (await app.request(`${API}/openapi.json`)).json();
    expect(Object.keys(doc.paths).filter((path) => path.includes('/ops'))).toEqual([]);
  });

  it("documents exactly the contract's calls, for a signed-in operator only", async () => {
    expect((await app.request(`${API}/ops/openapi.json`, { headers: clientHeaders })).status).toBe(401);
    const cookie = await signedIn();
    const res = await app.request(`${API}/ops/openapi.json`, { headers: { ...clientHeaders, cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const doc = await res.json();
    const calls = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/^\/ops/, '')}`),
    );
    expect(calls.sort()).toEqual(Object.keys(OPS_ANSWERS).sort());
  });

  it('answers bad input as the API does: 422 for a malformed id, 400 for malformed JSON, 415 for a form', async () => {
    const cookie = await signedIn();
    const send = (path: string, type: string, body: string) =>
      app.request(`${API}/ops${path}`, {
        method: 'POST',
        headers: { ...clientHeaders, cookie, 'x-peer-ip': nextIp(), 'content-type': type },
        body,
      });
    const badId = await send('/messages/not-a-uuid/retry', 'application/json', JSON.stringify({ reason: 'a reason' }));
    expect(badId.status).toBe(422);
    expect(await badId.json()).toMatchObject({ success: 0, code: 42200, field: 'id' });
    const id = crypto.randomUUID();
    const malformed = await send(`/messages/${id}/retry`, 'application/json', '{"reason":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ success: 0, code: 40000 });
    const form = await send(`/messages/${id}/retry`, 'application/x-www-form-urlencoded', 'reason=a+reason');
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ success: 0, code: 41500 });
  });
});
