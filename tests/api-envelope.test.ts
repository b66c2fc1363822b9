import { describe, expect, it } from 'vitest';
import { API, app, clientHeaders, form } from './support/api';

describe('API envelope, errors and validation', () => {
  it('answers health with the database checked', async () => {
    const res = await app.request(`${API}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: 1,
      msg: '',
      obj: {
        status: 'ok',
        database: 'ok',
        queue: { depth: expect.any(Number), oldestJobAgeSeconds: expect.any(Number), active: expect.any(Number) },
        live: expect.stringMatching(/^(idle|checking|hearing|deaf)$/),
        broker: 'postgres',
      },
    });
  });

  it('answers unknown routes 404 in the envelope, localized', async () => {
    const res = await app.request(`${API}/no/such/route`, { headers: { 'accept-language': 'es-ES,es;q=0.9' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      success: 0,
      code: 40400,
      msg: 'No se ha podido encontrar la página que buscabas.',
    });
  });

  it('accepts a trailing slash (strict: false)', async () => {
    const res = await app.request(`${API}/health/`);
    expect(res.status).toBe(200);
  });

  it('refuses a body over 1 MB with 413', async () => {
    const res = await app.request(`${API}/portal/order`, {
      method: 'POST',
      headers: { ...clientHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.co', phone: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: 0, code: 41300, msg: 'The request is too large.' });
  });

  it('refuses a mutating call without the website_type header (403)', async () => {
    const res = await app.request(`${API}/portal/order`, {
      method: 'POST',
      body: form({
        email: 'a@b.co',
        phone: '+14155552671',
        requesterName: 'Anna (your sister)',
        terms: true,
        startNow: true,
      }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).success).toBe(0);
  });

  it.each([
    ['en', 'Please enter email'],
    ['id', 'Silakan masukkan email'],
    ['es', 'Por favor, introduce un correo electrónico'],
  ])('answers a missing e-mail with 422 and a %s message', async (lang, msg) => {
    const res = await app.request(`${API}/portal/order`, {
      method: 'POST',
      headers: { ...clientHeaders, 'accept-language': lang, 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ phone: '+14155552671', requesterName: 'Anna (your sister)', terms: true, startNow: true }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ success: 0, code: 42200, msg, field: 'email' });
  });

  it('validates JSON bodies the same way as form bodies', async () => {
    const res = await app.request(`${API}/portal/order`, {
      method: 'POST',
      headers: { ...clientHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'not-an-email',
        phone: '+14155552671',
        requesterName: 'Anna (your sister)',
        terms: true,
        startNow: true,
      }),
    });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('The email address entered is incorrect');
  });

  it('validates a request with no body at all (nothing is skipped)', async () => {
    const res = await app.request(`${API}/portal/order`, { method: 'POST', headers: clientHeaders });
    expect(res.status).toBe(422);
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await app.request(`${API}/portal/order`, {
      method: 'POST',
      headers: { ...clientHeaders, 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).success).toBe(0);
  });

  it('requires the terms to be accepted', async () => {
    const res = await app.request(`${API}/portal/order`, {
      method: 'POST',
      headers: { ...clientHeaders, 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ email: 'a@b.co', phone: '+14155552671', requesterName: 'Anna', terms: false, startNow: true }),
    });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('Please accept the terms of use and the privacy policy to continue');
  });

  it('publishes an OpenAPI document generated from the schemas', async () => {
    const res = await app.request(`${API}/openapi.json`);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api_f/v1/other/location/info/{phone}', '/api_f/v1/portal/order']),
    );
  });
});
