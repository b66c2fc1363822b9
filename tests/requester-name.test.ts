import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, orders, outboundMessages } from '@/server/db/schema';
import { requesterNameProblem } from '@/lib/validation/requester-name';
import { buyAccount, call, uniqueEmail } from './support/accounts';
import { payCard, placeOrder } from './support/billing';
import { sha256 } from '@/server/services/tokens';
import { translate } from '@/server/i18n';

// Issue 13 §2: the buyer names themselves; the owner sees that name in the SMS and on the consent page.

describe('requester name rule', () => {
  it.each([
    ['Anna (your sister)', null],
    ['  Jo   Kim ', null],
    ['Ана', null],
    ['李', 'Validation.requesterNameLength'],
    ['', 'Validation.requesterNameRequired'],
    ['   ', 'Validation.requesterNameRequired'],
    ['x'.repeat(41), 'Validation.requesterNameLength'],
    ['Anna https://evil.example', 'Validation.requesterNameLink'],
    ['Anna www.evil', 'Validation.requesterNameLink'],
    ['see bit.ly', 'Validation.requesterNameLink'],
    ['anna@example.com', 'Validation.requesterNameLink'],
    ['Call +1 415 555 2671', 'Validation.requesterNamePhone'],
    ['Anna 0812-3456', 'Validation.requesterNamePhone'],
    ['Anna\u0007', 'Validation.requesterNameInvalid'],
    ['Anna\u202Egnp.exe', 'Validation.requesterNameInvalid'],
    ['Anna\nBob', 'Validation.requesterNameInvalid'],
  ])('%j → %s', (name, problem) => {
    expect(requesterNameProblem(name)).toBe(problem);
  });
});

describe('requester name through the API', () => {
  it.each([
    ['en', '', 'Please enter your name, so the owner knows who is asking'],
    [
      'es',
      'Anna http://x.example',
      'Tu nombre no puede contener un enlace, una dirección web ni un correo electrónico',
    ],
    ['id', 'Anna +62 812 3456 7877', 'Nama Anda tidak boleh berisi nomor telepon'],
  ])('refuses a bad name on POST /portal/order with a %s message, and stores no order', async (lang, name, msg) => {
    const email = uniqueEmail(`name-${lang}`);
    const { res, body } = await placeOrder({ email, requesterName: name }, { 'accept-language': lang });
    expect(res.status).toBe(422);
    expect(body).toMatchObject({ success: 0, msg, field: 'requesterName' });
    const db = await getDb();
    expect(await db.select().from(orders).where(eq(orders.email, email))).toHaveLength(0);
  });

  it('carries the name from the order to the SMS, the request and the consent page', async () => {
    const email = uniqueEmail('named');
    const { body } = await placeOrder({ email, requesterName: '  Anna   (your sister) ', phone: '+34612349911' });
    expect((await payCard(body.obj.code, '4242424242424242')).status).toBe(200);
    const db = await getDb();
    const [order] = await db.select().from(orders).where(eq(orders.code, body.obj.code));
    expect(order.requesterName).toBe('Anna (your sister)');
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, order.id));
    expect(request.requesterName).toBe('Anna (your sister)');
    const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, request.id));
    expect(sms.body).toMatch(/^Anna \(your sister\) pide la ubicación de este teléfono a través de Chamspy/);
    const code = /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1];

    const view = await call('GET', `/spyContent/consent/${code}`, { headers: { 'accept-language': 'es' } });
    expect((await view.json()).obj).toMatchObject({
      requesterName: 'Anna (your sister)',
      requester: expect.stringMatching(/^n•••@/),
      status: 'opened',
      reported: false,
      ended: null,
    });
    // The consent record's hash is of the text with the name, as the page showed it.
    await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'decline' },
      headers: { 'accept-language': 'es' },
    });
    const [record] = await db.select().from(consents).where(eq(consents.requestId, request.id));
    const masked = (await (await call('GET', `/spyContent/consent/${code}`)).json()).obj.requester;
    const shown = [
      'Anna (your sister) pide la ubicación de este teléfono a través de Chamspy.',
      `Solicitado desde la cuenta ${masked}.`,
      translate('es', 'Consent.what'),
    ].join('\n');
    expect(record.textHash).toBe(sha256(shown));
  });

  it('needs the name on a new request from the dashboard too', async () => {
    const buyer = await buyAccount(uniqueEmail('named-new'));
    const missing = await call('POST', '/spyContent/phoneLocation', {
      body: { phone: '+34612349922' },
      headers: { cookie: `token=${buyer.token}` },
    });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ field: 'requesterName' });
    const ok = await call('POST', '/spyContent/phoneLocation', {
      body: { phone: '+34612349922', requesterName: 'Tom', text: 'standard', locale: 'en' },
      headers: { cookie: `token=${buyer.token}` },
    });
    expect(ok.status).toBe(201);
    const db = await getDb();
    const [request] = await db
      .select()
      .from(locationRequests)
      .where(eq(locationRequests.id, (await ok.json()).obj.id));
    expect(request.smsText).toMatch(/^Tom asks for this phone's location via Chamspy\. Share or decline here: /);
  });
});
