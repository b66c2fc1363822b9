import { describe, expect, it } from 'vitest';
import { API, app } from './support/api';

describe('GET /other/location/info/{phone}', () => {
  it('answers the numbering-plan facts of a mobile number, localized', async () => {
    const res = await app.request(`${API}/other/location/info/${encodeURIComponent('+34 612 34 56 78')}`, {
      headers: { 'accept-language': 'es' },
    });
    expect(res.status).toBe(200);
    const { obj } = await res.json();
    expect(obj).toMatchObject({
      e164: '+34612345678',
      valid: true,
      countryCode: 'ES',
      countryName: 'España',
      callingCode: '+34',
      lineType: 'MOBILE',
      carrier: 'Syma',
      timeZones: ['Europe/Madrid'],
    });
  });

  it('gives a region for a fixed line and parses national numbers against a country', async () => {
    const res = await app.request(`${API}/other/location/info/${encodeURIComponent('044 668 18 00')}?country=CH`);
    const { obj } = await res.json();
    expect(obj).toMatchObject({ e164: '+41446681800', countryCode: 'CH', lineType: 'FIXED_LINE', region: 'Zurich' });
  });

  it('accepts digits of other scripts and strips extensions', async () => {
    const res = await app.request(`${API}/other/location/info/${encodeURIComponent('+١ ٤١٥ ٥٥٥ ٢٦٧١ ext. 12')}`);
    expect((await res.json()).obj.e164).toBe('+14155552671');
  });

  it.each([
    ['+999 123', 'invalid_country_code', 'The format of phone number is invalid. (invalid country code)', 'en'],
    ['+1 2', 'too_short', 'El formato del número de teléfono no es válido. (demasiado corto)', 'es'],
    ['+34 6123456789012345', 'too_long', 'Format nomor telepon tidak valid. (terlalu panjang)', 'id'],
    [
      '612345678',
      'invalid_country_code',
      'Add the country code at the start, e.g. +44 7400 123456 or +1 415 555 2671.',
      'en',
    ],
    ['612345678', 'invalid_country_code', 'Añade el prefijo del país al principio, p. ej., +34 612 34 56 78.', 'es'],
    ['0812345678', 'invalid_country_code', 'Tambahkan kode negara di depan, mis. +62 812-3456-7890.', 'id'],
  ])('rejects %s with 400 and the kind %s', async (phone, kind, msg, lang) => {
    const res = await app.request(`${API}/other/location/info/${encodeURIComponent(phone)}`, {
      headers: { 'accept-language': lang },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: 0, code: 40000, msg, kind });
  });

  it('parses a national number against the country the page gives (612345678 with ES is a Spanish mobile)', async () => {
    const res = await app.request(`${API}/other/location/info/612345678?country=ES`, {
      headers: { 'accept-language': 'es' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).obj).toMatchObject({ e164: '+34612345678', countryCode: 'ES', valid: true });
  });

  it('keeps "invalid country code" for a + code that does not exist, even with a country given', async () => {
    const res = await app.request(`${API}/other/location/info/${encodeURIComponent('+999 123')}?country=ES`);
    expect(res.status).toBe(400);
    expect((await res.json()).msg).toBe('The format of phone number is invalid. (invalid country code)');
  });

  it('refuses input over 250 characters with 422', async () => {
    const res = await app.request(`${API}/other/location/info/${'1'.repeat(251)}`);
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('The format of phone number is invalid. (too long)');
  });
});

describe('GET /other/ipInfo', () => {
  it('locates a public address from the MMDB', async () => {
    const res = await app.request(`${API}/other/ipInfo?ip=8.8.8.8`);
    const { obj } = await res.json();
    expect(obj).toMatchObject({
      ip: '8.8.8.8',
      status: 'found',
      countryCode: 'US',
      region: 'California',
      city: 'Mountain View',
    });
    expect(obj.latitude).toBeCloseTo(37.42, 1);
  });

  it("uses the caller's address by default", async () => {
    const res = await app.request(`${API}/other/ipInfo`, { headers: { 'x-peer-ip': '81.2.69.142' } });
    expect((await res.json()).obj).toMatchObject({ ip: '81.2.69.142', countryCode: 'GB', city: 'London' });
  });

  it('answers unknown, not an error, for private and loopback addresses', async () => {
    for (const ip of ['10.1.2.3', '192.168.0.5', '127.0.0.1', '::1']) {
      const res = await app.request(`${API}/other/ipInfo`, { headers: { 'x-peer-ip': ip } });
      expect(res.status).toBe(200);
      expect((await res.json()).obj).toMatchObject({ ip, status: 'unknown', countryCode: null, city: null });
    }
  });

  it('ignores a forged X-Forwarded-For from an untrusted peer', async () => {
    const res = await app.request(`${API}/other/ipInfo`, {
      headers: { 'x-peer-ip': '10.9.9.9', 'x-forwarded-for': '8.8.8.8' },
    });
    expect((await res.json()).obj).toMatchObject({ ip: '10.9.9.9', status: 'unknown' });
  });

  it('rejects a malformed ip parameter with a localized 422', async () => {
    const res = await app.request(`${API}/other/ipInfo?ip=999.1.1.1`, { headers: { 'accept-language': 'es' } });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('Introduce una dirección IP correcta');
  });
});
