import { site } from '../site';

/**
 * Requester names that claim an authority or the service itself: a buyer who names themselves "Policía Nacional",
 * "Banco Santander" or "Chamspy Support" borrows a trust the owner gives to institutions, and the consent SMS and
 * page would carry that claim under our name (README, "Locating with consent (decisions)", "Who asks"). The words are
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

/** The list in folded form, per prototype table (the browser's may be the identity while the table loads). */
const folded = new WeakMap<PrototypeOf, { words: string[]; inside: boolean }[]>();

function foldedList(prototypeOf: PrototypeOf) {
  let list = folded.get(prototypeOf);
  if (!list) {
    list = WORDS.map((entry) => ({
      words: foldedWords(entry.replace(/^\*/, ''), prototypeOf),
      inside: entry.startsWith('*'),
    }));
    folded.set(prototypeOf, list);
  }
  return list;
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
  return foldedList(prototypeOf).some((entry) =>
    entry.inside ? words.some((word) => word.includes(entry.words[0])) : has(words, entry.words),
  );
}

/** Whether `phrase` occurs in `words` as consecutive whole words. */
function has(words: string[], phrase: string[]): boolean {
  if (!phrase.length) return false;
  for (let start = 0; start + phrase.length <= words.length; start++) {
    if (phrase.every((word, k) => words[start + k] === word)) return true;
  }
  return false;
}
