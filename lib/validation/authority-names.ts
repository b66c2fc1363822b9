import { site } from '../site';

/**
 * Requester names that claim an authority or the service itself: a buyer who names themselves "Policía Nacional",
 * "Banco Santander" or "Chamspy Support" borrows a trust the owner gives to institutions, and the consent SMS and
 * page would carry that claim under our name (docs/features.md, "No claimed authority"). The words are
 * the police, courts and prosecutors, banks, the government and its ministries, tax offices and customs, the armed
 * forces, embassies, support and customer service, security teams, the service's administrators and the product's own
 * name (`NEXT_PUBLIC_PRODUCT_NAME`), in English, Spanish, Indonesian and Filipino (the en-PH visitors' Tagalog).
 *
 * Names are compared on a folded form, so spelling games do not slip through: NFKC (UAX #15: fullwidth and styled
 * letters become plain), "camelCase" split into words, case folded, accents and other combining marks removed, each
 * code point replaced by its UTS #39 confusable prototype (confusables.txt: Cyrillic "о" → "o", "0" → "O"; its "m" →
 * "rn" read back as "m"), the digits and signs that stand for letters read as those letters ("P0l1c3" → "police"),
 * "i" and "l" read as one letter (the skeleton makes a capital "I" an "l") and doubled letters as one ("Pollice").
 * The folded text is cut into words at anything that is not a letter; a run of one-letter words is read as one word
 * ("P.O.L.I.C.E").
 *
 * A listed word or phrase matches whole words only, so "Ana Bankova", "Hernán Cortés" and "Mariposa" pass; a few
 * long words that no name contains (`*` in the list: "policianacional", "embajadadeespaña") and the product's name
 * (when it folds to 5 letters or more: "Cham Spy", "ChamspyHelp") match inside words too. Left out on purpose: given
 * names that are also a word of an authority (Indonesian "Hakim" and "Dian", Spanish "Marina", English "Justice"),
 * plurals and words that are surnames elsewhere ("Banks", "Polis", Portuguese "Corte-Real": the Spanish "corte"
 * counts only in "Corte Suprema" and the like), and short abbreviations that are common name parts (Nepali "Bir",
 * Spanish "Cía", Indonesian "Dea"). Other surnames that are such a word ("Court", "Judge", "Bank") are refused: a few
 * false refusals are the price of never letting "Judge" or "Bank" ask a stranger for their location.
 */
const WORDS: readonly string[] = [
  // The police, in en, es, id and tl (Tagalog): the national forces and their units by the names owners know.
  'police, policeman, policewoman, officer, cop, cops, sheriff, detective, fbi, interpol',
  '*policia, policias, policial, guardia civil, guardia nacional, gendarmeria, carabineros, mossos',
  'ertzaintza, polisi, polri, *kepolisian, polda, polres, polsek, brimob, bareskrim',
  'reskrim, detektif, pulis, pulisya, pulisiya, pnp, nbi, cidg',
  // Courts, judges and prosecutors.
  'court, judge, magistrate, prosecutor, corte suprema, corte superior, corte constitucional, corte de justicia',
  'juez, jueza, juzgado, tribunal, fiscal',
  'fiscalia, *pengadilan, mahkamah, jaksa, kejaksaan, korte, hukom, huwes, piskal',
  // Banks.
  'bank, banking, banco, bancos, banca, bancaria, bancario, bangko, perbankan, ojk',
  // Government and ministries.
  '*government, govt, *gobierno, ministry, minister, *ministerio, ministro, *pemerintah',
  '*kementerian, menteri, kpk, gobyerno, *pamahalaan, kagawaran',
  // Tax offices and customs.
  'tax, taxes, tax office, internal revenue, irs, hmrc, customs, hacienda, tributaria, aduana',
  'pajak, bea cukai, buwis, adwana',
  // The armed forces.
  'army, navy, military, air force, armed forces, ejercito, militar, armada, fuerza aerea',
  'fuerzas armadas, tentara, tni, angkatan darat, angkatan laut, angkatan udara, hukbo, sundalo, afp',
  // Embassies and consulates.
  '*embassy, consulate, *embajada, consulado, kedutaan, kedubes, konsulat, embahada, konsulado',
  // Support, customer service, security teams and the service's own staff.
  'support, customer service, customer care, customer support, helpdesk, help desk, help center',
  'help centre, call center, call centre, service desk, tech support, security, security team, admin',
  'administrator, soporte, servicio al cliente, atencion al cliente, servicio tecnico, mesa de ayuda',
  'centro de ayuda, seguridad, administrador, dukungan, layanan pelanggan, pusat bantuan, keamanan',
  'tim keamanan, suporta',
].flatMap((group) => group.split(', '));

/**
 * Requester names that borrow the trust of a firm a stranger's text usually pretends to be (the smishing lures: "your
 * parcel is held", "your account will be closed", "your relative is at the hospital"): delivery firms and the post,
 * shops and marketplaces, messaging apps and the big platforms, phone carriers, charities, hospitals and clinics, and
 * an employer's HR or payroll, in English, Spanish, Indonesian and Filipino, compared on the same folded form and in
 * the same way as the authorities above (`*` also inside a word). Refused as the authorities are, with a message of
 * their own (`Validation.requesterNameLure`, docs/features.md "No lure").
 *
 * Left out on purpose: given names that are also a brand or a word of the list ("Charity", "Caridad", "Amal", "Dana",
 * "Maya", "Tri", "Dito", "Meta", "Line", "Tiki", "Toko", "Hermes", "Sky", "Apple", "Smart"), words that are surnames
 * ("Post", "Mercado", "Kantor", "Ong", "Ngo"), and names that fold to initials or a name ("EE" and "SSS" fold to one
 * letter, "O2" reads "Oz", "J&T" alone "JT"); such brands count only in a phrase ("J&T Express", "Apple ID", "Tri
 * Indonesia"). "HR", "Orange" and "Claro" are refused: a few people with the initials H. R. or such a surname are the
 * price, as with "Court" above.
 */
const LURE_WORDS: readonly string[] = [
  // Delivery firms and the post.
  '*correos, correos express, oficina de correos, seur, mrw, nacex, gls, dhl, *fedex, ups, usps, dpd, tnt, evri',
  'royal mail, parcelforce, estafeta, j&t express, jnt express, j&t cargo, jne, pos indonesia, kantor pos',
  '*sicepat, *anteraja, ninja xpress, ninja van, lion parcel, shopee express, spx, lbc, lbc express, phlpost',
  'flash express, grab express, *lalamove, post office, courier, couriers, kurir, mensajeria, paqueteria',
  'paquete, paquetes, parcel, package, delivery, paket, pengiriman, ekspedisi, postman, mailman, cartero',
  'repartidor, koreo, padala',
  // Shops and marketplaces.
  '*shopee, *lazada, *tokopedia, *bukalapak, blibli, amazon, ebay, *aliexpress, alibaba, temu, shein, zalora',
  '*mercadolibre, mercado libre, wallapop, el corte ingles, carrefour, walmart, *indomaret, *alfamart, shop',
  'store, tienda, tindahan, online shop, olshop, toko online, marketplace, tiktok shop',
  // Messaging apps and platforms, payment apps.
  '*whatsapp, whats app, *telegram, signal, messenger, *facebook, *instagram, *tiktok, wechat, viber, *snapchat',
  '*google, gmail, apple id, *icloud, *microsoft, outlook, hotmail, yahoo, *netflix, *spotify, *paypal, gojek',
  'grab, gopay, ovo, *gcash, paymaya, bizum, uber, glovo, rappi, youtube, twitter, app, western union, moneygram',
  'cebuana lhuillier, palawan express',
  // Phone carriers.
  '*telkomsel, telkom, *indosat, xl axiata, axis, tri indonesia, *smartfren, im3, *movistar, *vodafone, orange',
  'yoigo, *masmovil, pepephone, simyo, lowi, *jazztel, *telefonica, telcel, claro, at&t, verizon, t-mobile',
  'tmobile, three uk, globe, globe telecom, smart communications, dito telecommunity, sun cellular, operator',
  'operadora, mobile operator, phone carrier, mobile carrier',
  // Charities.
  'red cross, cruz roja, palang merah, pmi, *unicef, save the children, caritas, *oxfam, world vision',
  'medicos sin fronteras, doctors without borders, msf, foundation, fundacion, yayasan, donation, donations',
  'donasi, donativo, donaciones, kawanggawa, unhcr, acnur, baznas, dompet dhuafa, kitabisa',
  // Hospitals, clinics and emergency services.
  '*hospital, hospitals, clinic, clinica, klinik, klinika, rumah sakit, rsud, rsup, *puskesmas, ospital',
  'pagamutan, ambulance, ambulancia, ambulans, medical center, medical centre, centro medico, centro de salud',
  'health center, health centre, nhs, bpjs, *philhealth, emergency, emergencias, urgencias, gawat darurat, ugd',
  'igd',
  // An employer's HR and payroll.
  'hr, hrd, human resources, recursos humanos, rrhh, personalia, sdm, kepegawaian, employer, empleador, payroll',
  'nomina, penggajian',
].flatMap((group) => group.split(', '));

/** One code point → its confusable prototype (UTS #39), as `prototypeOf` in ./skeleton gives it. */
type PrototypeOf = (char: string) => string;

/** Digits and signs written for the letters they look like ("P0l1c3", "B@nk", "$upport"). */
const LETTER_LIKE: Readonly<Record<string, string>> = Object.fromEntries(
  ['0o', '1l', '2z', '3e', '4a', '5s', '6b', '7t', '8b', '9g', '@a', '$s', '!l', '|l', '€e', '+t'].map((pair) => [
    ...pair,
  ]),
);

/** Reads one code point, lower case, as the letters it looks like: its prototype, folded again, marks dropped. */
function foldChar(char: string, prototypeOf: PrototypeOf): string {
  let out = '';
  for (const first of (LETTER_LIKE[char] ?? prototypeOf(char)).normalize('NFD').toLowerCase()) {
    if (/\p{M}/u.test(first)) continue;
    // A prototype may be a capital ("I" → "l" is lower, "Ρ" → "P" is not) or a digit ("З" → "3"): read it once more.
    for (const second of prototypeOf(first).normalize('NFD').toLowerCase()) {
      if (!/\p{M}/u.test(second)) out += LETTER_LIKE[second] ?? second;
    }
  }
  return out;
}

/**
 * The words of `text` in the folded form described above; a run of one-letter words ("p o l i c e") becomes one
 * word. Pure; never throws.
 */
export function foldedWords(text: string, prototypeOf: PrototypeOf): string[] {
  const split = text.normalize('NFKC').replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
  let folded = '';
  for (const char of split.toLowerCase().normalize('NFD')) {
    if (!/\p{M}/u.test(char)) folded += foldChar(char, prototypeOf);
  }
  const words = folded
    // The skeleton writes "m" as "rn": read it back as one letter before doubled letters are made one ("Amy", "Army").
    .replace(/rn/g, 'm')
    .replace(/i/g, 'l')
    .replace(/(\p{L})\1+/gu, '$1')
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
  const merged: string[] = [];
  let letters = '';
  for (const word of [...words, '']) {
    if ([...word].length === 1) {
      letters += word;
      continue;
    }
    if (letters) merged.push(letters.replace(/(\p{L})\1+/gu, '$1'));
    letters = '';
    if (word) merged.push(word);
  }
  return merged;
}

/** A list in folded form, per list and prototype table (the browser's may be the identity while the table loads). */
const folded = new WeakMap<readonly string[], WeakMap<PrototypeOf, { words: string[]; inside: boolean }[]>>();

function foldedList(list: readonly string[], prototypeOf: PrototypeOf) {
  let byTable = folded.get(list);
  if (!byTable) {
    byTable = new WeakMap();
    folded.set(list, byTable);
  }
  let entries = byTable.get(prototypeOf);
  if (!entries) {
    entries = list.map((entry) => ({
      words: foldedWords(entry.replace(/^\*/, ''), prototypeOf),
      inside: entry.startsWith('*'),
    }));
    byTable.set(prototypeOf, entries);
  }
  return entries;
}

/**
 * Whether the folded `words` hold an entry of `list`: as whole words, or for a `*` entry inside a word or across the
 * words run together ("FedEx" is cut into "Fed Ex" like any camelCase name).
 */
function holdsEntry(words: string[], list: readonly string[], prototypeOf: PrototypeOf): boolean {
  const joined = words.join('');
  return foldedList(list, prototypeOf).some((entry) =>
    entry.inside
      ? joined.includes(entry.words[0]) || words.some((word) => word.includes(entry.words[0]))
      : has(words, entry.words),
  );
}

/**
 * Whether the requester name `name` claims to be an authority or the service (see the list above), compared on the
 * folded form: a listed word or phrase as whole words, the `*` words and the product's name (`product`, by default
 * `NEXT_PUBLIC_PRODUCT_NAME`) also inside a word. `prototypeOf`: ./skeleton's `prototypeOf`, or the identity in a
 * browser that could not load it (the API still checks with the table). Pure; never throws.
 */
export function claimsAuthority(name: string, prototypeOf: PrototypeOf, product: string = site.product): boolean {
  const words = foldedWords(name, prototypeOf);
  const joined = words.join('');
  const productWords = foldedWords(product, prototypeOf);
  const productJoined = productWords.join('');
  if (productJoined && (productJoined.length >= 5 ? joined.includes(productJoined) : has(words, productWords)))
    return true;
  return holdsEntry(words, WORDS, prototypeOf);
}

/**
 * Which borrowed trust the requester name `name` claims, or null: `Authority` (the police, a court, a bank, the
 * government, support, the product itself: `claimsAuthority`) before `Lure` (a delivery firm, a shop, an app, a phone
 * carrier, a charity, a hospital or an employer's HR: LURE_WORDS), both on the folded form. The message key is
 * `Validation.requesterName<Claim>` (lib/validation/requester-name.ts). Pure; never throws.
 */
export function borrowedTrust(
  name: string,
  prototypeOf: PrototypeOf,
  product: string = site.product,
): 'Authority' | 'Lure' | null {
  if (claimsAuthority(name, prototypeOf, product)) return 'Authority';
  return holdsEntry(foldedWords(name, prototypeOf), LURE_WORDS, prototypeOf) ? 'Lure' : null;
}

/** Whether `phrase` occurs in `words` as consecutive whole words. */
function has(words: string[], phrase: string[]): boolean {
  if (!phrase.length) return false;
  for (let start = 0; start + phrase.length <= words.length; start++) {
    if (phrase.every((word, k) => words[start + k] === word)) return true;
  }
  return false;
}
