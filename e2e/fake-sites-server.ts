// The fake public sites the e2e server's username lookup asks: e2e/fixtures/wmn-sites.json names them
// at http://127.0.0.1:3296. The slow site answers after 20 s, so a lookup runs until the time-out (4 s in the suite)
// and its progress and Stop can be seen.
import { FakeSites } from '../tests/support/fake-sites';

const fake = new FakeSites();
fake.slowMs = 20_000;
await fake.start(Number(process.env.FAKE_SITES_PORT ?? 3296));
console.log(`fake sites on ${fake.base}`);
