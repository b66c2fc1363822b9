import { describe, expect, it } from 'vitest';
import { buyAccount, call, uniqueEmail } from './support/accounts';

// Without HIBP_API_KEY (the suite's default settings) the check says it is not configured here, rather
// than "no breaches".
describe('data-leak check without an HIBP key', () => {
  it('answers configured: false to a signed-in subscriber', async () => {
    const buyer = await buyAccount(uniqueEmail('leak-off'));
    const res = await call('GET', '/account/dataLeaks', { headers: { cookie: `token=${buyer.token}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).obj).toEqual({ configured: false });
  });
});
