import { describe, expect, it } from 'vitest';
import { borrowedTrust } from '@/lib/validation/authority-names';
import { requesterNameProblem } from '@/lib/validation/requester-name';
import { prototypeOf } from '@/lib/validation/skeleton';
import { buyAccount, uniqueEmail } from './support/accounts';
import { expectNewRequestRefused, expectOrderRefused } from './support/billing';

// The names scam texts sign with: a delivery firm, a shop, an app, a phone carrier, a charity, a hospital, an
// employer's HR. The owner reads the requester name in an SMS from a stranger: none of them may ask
// (lib/validation/authority-names.ts LURE_WORDS, docs/features.md "Locating with consent", "No lure").

const LURE = 'Validation.requesterNameLure';

describe('requester names that borrow a lure’s trust, by family (en, es, id, en-PH)', () => {
  it.each([
    // Delivery firms and the post.
    ['delivery', 'Correos'],
    ['delivery', 'Correos: paquete retenido'],
    ['delivery', 'DHL Express'],
    ['delivery', 'J&T Express'],
    ['delivery', 'FedEx'],
    ['delivery', 'Royal Mail'],
    ['delivery', 'SEUR'],
    ['delivery', 'JNE'],
    ['delivery', 'Kantor Pos'],
    ['delivery', 'Kurir SiCepat'],
    ['delivery', 'LBC Express'],
    ['delivery', 'Your parcel'],
    ['delivery', 'C0rre0s'],
    ['delivery', 'D.H.L'],
    // Shops and marketplaces.
    ['shop', 'Shopee'],
    ['shop', 'Lazada PH'],
    ['shop', 'Tokopedia'],
    ['shop', 'Amazon'],
    ['shop', 'Mercado Libre'],
    ['shop', 'Tienda online'],
    ['shop', 'Online Shop'],
    ['shop', 'ShopeePay'],
    ['shop', 'Sh\u043Epee'],
    // Messaging apps and platforms.
    ['app', 'WhatsApp'],
    ['app', 'Whats App'],
    ['app', 'Google'],
    ['app', 'G00gle'],
    ['app', 'Telegram'],
    ['app', 'Facebook Team'],
    ['app', 'GCash'],
    ['app', 'Gojek'],
    ['app', 'Apple ID'],
    // Phone carriers.
    ['carrier', 'Telkomsel'],
    ['carrier', 'Movistar'],
    ['carrier', 'Vodafone'],
    ['carrier', 'Indosat Ooredoo'],
    ['carrier', 'Globe Telecom'],
    ['carrier', 'Tu operadora'],
    ['carrier', 'M\u043Evistar'],
    // Charities.
    ['charity', 'Cruz Roja'],
    ['charity', 'Red Cross'],
    ['charity', 'Palang Merah Indonesia'],
    ['charity', 'UNICEF'],
    ['charity', 'Fundación Esperanza'],
    ['charity', 'Yayasan Peduli'],
    // Hospitals.
    ['hospital', 'Dr. García (hospital)'],
    ['hospital', 'Hospital La Paz'],
    ['hospital', 'Rumah Sakit Siloam'],
    ['hospital', 'Puskesmas Cilandak'],
    ['hospital', 'St. Luke’s Medical Center'],
    ['hospital', 'Clínica Dental'],
    ['hospital', 'Ospital ng Maynila'],
    ['hospital', 'H0SP1TAL'],
    // An employer's HR.
    ['employer', 'Your employer HR'],
    ['employer', 'Recursos Humanos'],
    ['employer', 'RRHH'],
    ['employer', 'HRD Kantor'],
    ['employer', 'Payroll'],
  ])('%s: %j is refused', (_, name) => {
    expect(requesterNameProblem(name, prototypeOf)).toBe(LURE);
  });

  it('names the authority rule for an authority, and this rule for a lure', () => {
    expect(borrowedTrust('Policía Nacional', prototypeOf)).toBe('Authority');
    expect(borrowedTrust('Correos', prototypeOf)).toBe('Lure');
    expect(borrowedTrust('Anna (your sister)', prototypeOf)).toBeNull();
  });

  // Ordinary names in the four languages, several of them words too ("Grace", "Angel", "Caridad", "Dana", "Maya").
  it.each([
    // English.
    'Grace',
    'Angel',
    'Faith',
    'Hope',
    'Joy',
    'Charity',
    'Mercy',
    'Destiny',
    'Amber',
    'Dana',
    'Sky',
    'Tom Post',
    'Emily Carrier',
    'Grant Shopland',
    'Uberto',
    // Spanish.
    'Marta',
    'Ángel',
    'Caridad',
    'Consuelo',
    'Socorro',
    'Amparo',
    'Mercedes',
    'Salvador',
    'Rosario',
    'Pilar',
    'Juan de la Cruz',
    'Lucía Mercado',
    'Paco (tu primo)',
    'Claudia',
    // Indonesian.
    'Budi',
    'Dewi',
    'Sri Wahyuni',
    'Tri Handayani',
    'Maya',
    'Dian',
    'Putri',
    'Agus Santoso',
    'Intan',
    'Bayu (kakak)',
    'Ong Hok Ham',
    // Filipino (en-PH).
    'Maria Clara',
    'Kuya Jun',
    'Ate Joy',
    'Cherry',
    'Precious',
    'Dito',
    'Marites',
    'Luzviminda',
    'Ligaya',
    'Bituin',
    'Tita Baby',
  ])('%j is accepted', (name) => {
    expect(requesterNameProblem(name, prototypeOf)).toBeNull();
  });
});

describe('lure names through the API', () => {
  it.each([
    [
      'en',
      'DHL Express',
      "Names of delivery companies, shops, apps, phone carriers, charities, hospitals or employers can't be used as your name",
    ],
    [
      'es',
      'Correos: paquete retenido',
      'No se pueden usar como nombre los de empresas de mensajería, tiendas, aplicaciones, operadoras de telefonía, organizaciones benéficas, hospitales ni empleadores',
    ],
    [
      'id',
      'Telkomsel',
      'Nama perusahaan pengiriman, toko, aplikasi, operator seluler, lembaga amal, rumah sakit, atau pemberi kerja tidak boleh dipakai sebagai nama Anda',
    ],
    [
      'en',
      'Cruz Roja',
      "Names of delivery companies, shops, apps, phone carriers, charities, hospitals or employers can't be used as your name",
    ],
  ])('POST /portal/order (%s) refuses %j with 422 and stores no order', async (lang, name, msg) => {
    await expectOrderRefused({ email: uniqueEmail(`lure-${lang}`), requesterName: name }, lang, 'requesterName', msg);
  });

  it('refuses a lure name on a new request from the dashboard too, and creates no request', async () => {
    const buyer = await buyAccount(uniqueEmail('lure-new'));
    await expectNewRequestRefused(
      buyer.token,
      { phone: '+34612340091', requesterName: 'WhatsApp' },
      'es',
      'requesterName',
      'No se pueden usar como nombre los de empresas de mensajería, tiendas, aplicaciones, operadoras de telefonía, organizaciones benéficas, hospitales ni empleadores',
    );
  });
});
