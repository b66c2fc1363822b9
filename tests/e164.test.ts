import { describe, expect, it } from 'vitest';
import { e164Country, parseE164 } from '@/lib/contracts/e164';
import { e164ErrorKey } from '@/lib/contracts/phone';
import { orderViewSchema } from '@/lib/contracts/orders';
import { API, app } from './support/api';
import { nextPhone, uniqueEmail } from './support/accounts';
import { placeOrder } from './support/billing';

// The E.164 value object (lib/contracts/e164.ts, lib/contracts/phone.ts) and the one mapping of its errors, as the
// routes that take a number answer it (docs/decisions/0010-one-contract-per-payload.md).

describe('parseE164', () => {
  it('gives the E.164 value of international and national input', () => {
    expect(parseE164('+34 612 34 56 78')).toEqual({ ok: true, value: '+34612345678' });
    expect(parseE164('0812-3456-7877', 'id')).toEqual({ ok: true, value: '+6281234567877' });
    expect(parseE164('+١ ٤١٥ ٥٥٥ ٢٦٧١ ext. 12')).toEqual({ ok: true, value: '+14155552671' });
  });

  it('refuses with a typed error, and asks for the country code only when none could be known', () => {
    expect(parseE164('612345678')).toEqual({
      ok: false,
      error: { kind: 'invalid_country_code', needsCountryCode: true },
    });
    expect(parseE164('+999 123')).toEqual({
      ok: false,
      error: { kind: 'invalid_country_code', needsCountryCode: false },
    });
    expect(parseE164('+1 2')).toMatchObject({ ok: false, error: { kind: 'too_short' } });
    expect(parseE164('+34 6123456789012345')).toMatchObject({ ok: false, error: { kind: 'too_long' } });
  });

  it('maps each refusal to one message key', () => {
    expect(e164ErrorKey({ kind: 'invalid_country_code', needsCountryCode: true })).toBe(
      'Validation.phoneAddCountryCode',
    );
    expect(e164ErrorKey({ kind: 'invalid_country_code', needsCountryCode: false })).toBe(
      'Validation.phoneInvalidCountry',
    );
    expect(e164ErrorKey({ kind: 'too_short', needsCountryCode: false })).toBe('Validation.phoneTooShort');
    expect(e164ErrorKey({ kind: 'not_a_number', needsCountryCode: false })).toBe('Validation.phoneInvalid');
  });

  it("tells a parsed number's country, none for international networks", () => {
    const spanish = parseE164('+34612345678');
    const satellite = parseE164('+881 6 1234 5678');
    expect(spanish.ok && e164Country(spanish.value)).toBe('ES');
    expect(satellite.ok && e164Country(satellite.value)).toBeNull();
  });
});

describe('a refused number on the order route', () => {
  it('answers 400 with the same message and kind as the lookups', async () => {
    const { res, body } = await placeOrder({ email: uniqueEmail('e164'), phone: '612345678' });
    expect(res.status).toBe(400);
    expect(body).toMatchObject({
      msg: 'Add the country code at the start, e.g. +44 7400 123456 or +1 415 555 2671.',
      kind: 'invalid_country_code',
    });
    const short = await placeOrder({ email: uniqueEmail('e164'), phone: '+1 2' });
    expect(short.res.status).toBe(400);
    expect(short.body).toMatchObject({ msg: 'The format of phone number is invalid. (too short)', kind: 'too_short' });
  });

  it('answers the order in the shape of its contract', async () => {
    const e164 = nextPhone();
    const national = `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;
    const { res, body } = await placeOrder({ email: uniqueEmail('e164'), phone: national, country: 'US' });
    expect(res.status).toBe(201);
    expect(orderViewSchema.strict().extend({ next: orderViewSchema.shape.code }).parse(body.obj)).toMatchObject({
      phone: e164,
      status: 'pending',
    });
  });
});

describe('OpenAPI document', () => {
  it("documents an order's contract with its descriptions", async () => {
    const doc = await (await app.request(`${API}/openapi.json`)).json();
    const schema =
      doc.paths['/api_f/v1/portal/order/{code}'].get.responses['200'].content['application/json'].schema.properties.obj;
    expect(Object.keys(schema.properties)).toEqual(Object.keys(orderViewSchema.shape));
    expect(schema.properties.reference.description).toContain('CH-7K4M-2Q');
  });
});
