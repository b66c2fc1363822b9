import { borrowedTrust } from './authority-names';

/**
 * The rule for user text that reaches the phone's owner: the requester name (shown on the consent page and in the
 * consent SMS: "Anna (your sister) asks for this phone's location via Chamspy") and the note to the owner (consent page
 * only). Both are held to the rules of any text that reaches a stranger with our name on it (docs/features.md,
 * "Locating with consent", "Who asks"): a person must be able to read who asks, and the text cannot carry a link, an
 * e-mail address or a call-back number, however it is spelled.
 *
 * - Nothing invisible: no control, format (`\p{Cf}`: soft hyphen, Arabic letter mark, zero-width and bidirectional
 *   marks, interlinear annotations, tag characters), line/paragraph separator, private-use, unassigned or surrogate
 *   code point, no default-ignorable code point (Unicode UAX #44 `Default_Ignorable_Code_Point`: Hangul fillers
 *   U+115F/U+1160/U+3164/U+FFA0, combining grapheme joiner, variation selectors, Mongolian selectors, Khmer inherent
 *   vowels, musical formatting U+1D173–1D17A) and no braille blank U+2800. The one exception is an emoji sequence
 *   (Unicode UTS #51, section 1.4.9, "possible emoji"): its zero-width joiners, variation selectors and the tag characters of
 *   the England, Scotland and Wales flags are part of the picture.
 * - No combining mark without a base (at the start or after a space), no stack of more than 4 marks.
 * - A name has at least two visible letters (`\p{L}`, fillers excepted; marks, digits, symbols and emoji do not count).
 * - Links, e-mail addresses and phone numbers are looked for on a comparison form, so look-alikes do not slip
 *   through: NFKC (UAX #15: fullwidth "．" becomes ".", circled "⑥" and superscript "⁶" become "6"), the full stops
 *   IDNA treats as label separators (U+3002, U+FF0E, U+FF61; UTS #46, section 4) become ".", then the confusable skeleton of
 *   UTS #39, section 4 (NFD, each code point replaced by its prototype from confusables.txt: Cyrillic "о" → "o", "․" → ".").
 * - A name does not claim to be an authority or the service ("Policía Nacional", "Bank BCA", "Chamspy Support"), nor
 *   a firm that scam texts pretend to be (a delivery firm, a shop, an app, a phone carrier, a charity, a hospital, an
 *   employer's HR: "Correos", "Shopee", "WhatsApp", "Telkomsel", "Cruz Roja"), in any spelling: ./authority-names.
 * - Neither text carries a defanged link: `hxxp://`, `http:/` with one slash, `evil[.]com`, `evil(dot)com`,
 *   `evil dot com` (a spelled dot counts before a generic top-level domain only, so sentences keep their words).
 */
export const REQUESTER_NAME = { min: 2, max: 40, maxDigits: 4, minLetters: 2 } as const;

/**
 * The note to the owner: optional plain text of at most 140 characters shown on the consent page under the requester's
 * name, never in the SMS; the requester name's rules except the letters (an emoji-only note is readable).
 */
export const OWNER_NOTE = { min: 0, max: 140, maxDigits: 4, minLetters: 0 } as const;

/** One code point → its confusable prototype (UTS #39 confusables.txt), as `prototypeOf` in ./skeleton gives it. */
export type PrototypeOf = (char: string) => string;

/** What can be wrong with a piece of user text; `Validation.requesterName<Problem>` / `Validation.note<Problem>`. */
type Problem = 'Invalid' | 'Required' | 'Length' | 'Letters' | 'Link' | 'Phone';

let prototypes: Promise<PrototypeOf> | undefined;

/**
 * The confusable prototypes, loaded on first use: their table is about 28 KB gzipped, so the browser forms fetch it
 * when they first check a name or note (at submit) instead of in their page's first load. Resolves to the identity
 * when the chunk cannot be loaded (offline): the form then checks without look-alikes and the API, which imports
 * ./skeleton directly, still applies the whole rule. Never rejects; a failed load is tried again on the next call.
 */
export function loadPrototypes(): Promise<PrototypeOf> {
  prototypes ??= import('./skeleton').then(
    (m) => m.prototypeOf,
    () => {
      prototypes = undefined;
      return (char: string) => char;
    },
  );
  return prototypes;
}

/** `value` trimmed with runs of whitespace made one space: the form stored and shown. */
export function normalizeRequesterName(value: string): string {
  return value.trim().replace(/\s+/gu, ' ');
}

/**
 * The message key (`Validation.requesterName*`) for what is wrong with `value`, or null when it is a valid requester
 * name: `Invalid` (an invisible, control or format character, a stray combining mark), `Required`, `Length` (2–40
 * code points after `normalizeRequesterName`), `Link` (a URL, a web address or an e-mail address, look-alikes
 * included), `Phone` (more than 4 digits, or a run of more than 4 digits and look-alike digits), `Letters` (fewer than
 * two visible letters), then `Authority` (the name claims to be the police, a court, a bank, the government, support,
 * the product itself…) or `Lure` (a delivery firm, a shop, an app, a phone carrier, a charity, a hospital, an
 * employer's HR), compared on a folded form (`borrowedTrust` in ./authority-names). `prototypeOf`:
 * ./skeleton's `prototypeOf` (the API) or `await loadPrototypes()` (the browser forms). Pure; never throws.
 */
export function requesterNameProblem(value: string, prototypeOf: PrototypeOf): string | null {
  const problem = userTextProblem(value, REQUESTER_NAME, prototypeOf);
  if (problem) return `Validation.requesterName${problem}`;
  const claim = borrowedTrust(normalizeRequesterName(value), prototypeOf);
  return claim && `Validation.requesterName${claim}`;
}

/**
 * The message key (`Validation.note*`) for what is wrong with a note to the owner, or null when it is valid; an empty
 * or blank note is valid (no note). Line breaks count as spaces; otherwise the requester name's rule (see
 * `requesterNameProblem`) with at most 140 code points and no minimum of letters. Pure; never throws.
 */
export function ownerNoteProblem(value: string, prototypeOf: PrototypeOf): string | null {
  const problem = userTextProblem(value.replace(/\r?\n/g, ' '), OWNER_NOTE, prototypeOf);
  return problem && `Validation.note${problem}`;
}

/** A note as stored and shown: line breaks typed in the text area become spaces, whitespace collapsed; null when empty. */
export function normalizeOwnerNote(value: string): string | null {
  return normalizeRequesterName(value) || null;
}

/**
 * Code points that render as nothing or as a blank: controls, format characters, line and paragraph separators,
 * private-use, unassigned and lone surrogate code points, default-ignorables (UAX #44) and the braille blank.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800]/u;
/** Letters that render blank (Hangul fillers); they are default-ignorable too, so refused before letters are counted. */
const BLANK_LETTERS = /[\u115F\u1160\u3164\uFFA0]/gu;
/**
 * A combining mark with nothing to sit on, or more than 4 stacked on one base once decomposed (text overdrawn over its
 * neighbours; Vietnamese needs 2, Thai and Tibetan stacks 3 or 4).
 */
const STRAY_MARKS = /(?:^|\s)\p{M}|\p{M}{5}/u;

/**
 * One element of an emoji sequence (UTS #51, section 1.4.9 and ED-17): a flag (two regional indicators), the England,
 * Scotland or Wales tag sequence, or an emoji with a skin-tone modifier, a variation selector and/or a keycap.
 */
const EMOJI_ELEMENT = String.raw`(?:\p{RI}\p{RI}|\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}|\p{Emoji}(?:\p{EMod}|[\uFE0E\uFE0F]\u20E3?|\u20E3)?)`;
/** Emoji elements joined by zero-width joiners ("👩‍👧"). */
const EMOJI_SEQUENCE = new RegExp(`${EMOJI_ELEMENT}(?:\\u200D${EMOJI_ELEMENT})*`, 'gu');
/** The invisible parts an emoji sequence may hold: joiner, variation selectors, tags. */
const EMOJI_PARTS = /[\u200D\uFE0E\uFE0F\u{E0020}-\u{E007F}]/gu;

/** Full stops that IDNA maps to "." between the labels of a domain name (UTS #46, section 4, RFC 3490, section 3.1). */
const LABEL_DOTS = /[\u3002\uFF0E\uFF61]/gu;
/** A URL scheme (`https://`, `hxxp://`), `www.`, or an at sign, on the skeleton. */
const LINK_MARK = /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|@/iu;
/** A dotted name whose last label follows the dot at once (`evil.com`, `bit.ly`, `EVIL .COM`), on the skeleton. */
const DOMAIN_TIGHT = /[\p{L}\p{N}-]\s*\.[a-z]{2,}/iu;
/**
 * A dotted name with spaces around the dot whose last label is lower case (`evil . com`); "J. Smith" and "Hola. Soy
 * Ana" are a name and two sentences, not an address.
 */
const DOMAIN_SPACED = /[\p{L}\p{N}-]\s*\.\s*[a-z]{2,}/u;
/**
 * A defanged separator, as threat reports and scam texts write links so that they are not links: a dot, colon or at
 * sign, or the word for one (`dot`, Spanish `punto`, Indonesian `titik`, `at`), in brackets (`evil[.]com`,
 * `evil(dot)com`, `hxxp[:]//`, `anna[at]mail`), with any spaces around; read as the character it stands for.
 */
const DEFANGED = /\s*[[({<]\s*(\.|:|@|dot|punto|titik|at)\s*[\])}>]\s*/giu;
/** What a defanged separator stands for. */
const DEFANGED_AS: Readonly<Record<string, string>> = { dot: '.', punto: '.', titik: '.', at: '@' };
/** A web scheme however it is broken: `http:/x` (one slash), `http:\\x`, `http:x`, `https//x`, `hxxp:`, `hxxps/`. */
const WEB_SCHEME = /\bh(?:tt|xx)ps?\s*[:;/\\]/iu;
/**
 * A dot spelled out between a name and a generic top-level domain (`evil dot com`, `evil punto com`, `evil titik
 * net`, `www dot`): only generic domains, so "el punto es que…" stays a sentence. On the skeleton, where "m" is written
 * "rn" and a capital "I" reads "l" (both read back here).
 */
const SPELLED_DOT =
  /[\p{L}\p{N}][\s_-]+(?:dot|punto|t[il]t[il]k)[\s_-]+(?:com|net|org|[il]nfo|[il]o|ly|xyz|app|s[il]te|onl[il]ne|shop|store|club|b[il]z)\b|\bwww[\s_-]+(?:dot|punto|t[il]t[il]k)\b/iu;
/** Stands for a digit or a look-alike of one in the digit view; no control character survives the first check. */
const DIGIT = '\u0000';
/** Digits or look-alikes with only phone-number punctuation between them, in the digit view. */
const DIGIT_RUN = /\0(?:[\s\-.()/+]*\0)*/gu;

/**
 * Whether the comparison form `form` reads as a link, a web address or an e-mail address, defanged ones included:
 * its defanged separators are read as the characters they stand for, then a scheme (`https://`, `hxxp://`, `http:/`),
 * `www.`, an at sign, a dotted name (`evil.com`, `evil . com`) or a spelled dot (`evil dot com`) is looked for.
 */
function readsAsLink(form: string): boolean {
  const text = form.replace(DEFANGED, (_, inner: string) => DEFANGED_AS[inner.toLowerCase()] ?? inner);
  return (
    [LINK_MARK, WEB_SCHEME, DOMAIN_TIGHT, DOMAIN_SPACED].some((rule) => rule.test(text)) ||
    SPELLED_DOT.test(text.replace(/rn/giu, 'm'))
  );
}

/**
 * Whether `value` holds a code point a reader cannot see, or a combining mark that draws over its neighbours, once the
 * invisible parts of emoji sequences are set aside.
 */
function hasInvisible(value: string): boolean {
  const text = value.replace(EMOJI_SEQUENCE, (sequence) => sequence.replace(EMOJI_PARTS, ''));
  return INVISIBLE.test(text) || STRAY_MARKS.test(text.normalize('NFD'));
}

/**
 * The comparison forms of `text` (see the module's comment). `skeletons`: its UTS #39 skeleton after NFKC and the
 * IDNA full stops, combining marks removed (so "cóm" reads "com"), each upper- or title-case letter's prototype in
 * upper case (so "I" stays a capital, not "l"), digits kept as digits ("0" is not read "O", Arabic-Indic "٥" not "o");
 * and the same with each digit whose prototype is punctuation replaced by it (Arabic-Indic zero reads "."). `digits`:
 * the first with every digit and every code point whose prototype is a digit (Cyrillic "б" → "6") replaced by
 * `DIGIT`. `count`: the number of digits after NFKC.
 */
function comparisonForms(text: string, prototypeOf: PrototypeOf) {
  const decomposed = text.normalize('NFKC').replace(LABEL_DOTS, '.').normalize('NFD');
  let asDigits = '';
  let asPunctuation = '';
  let digits = '';
  let count = 0;
  for (const char of decomposed) {
    const prototype = prototypeOf(char).normalize('NFD').replace(/\p{M}/gu, '');
    const cased = /[\p{Lu}\p{Lt}]/u.test(char) ? prototype.toUpperCase() : prototype;
    const isDigit = /\p{N}/u.test(char);
    if (isDigit) count += 1;
    asDigits += isDigit ? char : cased;
    asPunctuation += isDigit && !/\p{P}/u.test(prototype) ? char : cased;
    digits += isDigit || /^[0-9]$/.test(prototype) ? DIGIT : cased;
  }
  return { skeletons: [asDigits, asPunctuation], digits, count };
}

/**
 * What is wrong with a piece of user text that reaches the phone's owner, by the rule `limits` (lengths in Unicode
 * code points after `normalizeRequesterName`); null when valid. See `requesterNameProblem` for the problems.
 */
function userTextProblem(
  value: string,
  limits: { min: number; max: number; maxDigits: number; minLetters: number },
  prototypeOf: PrototypeOf,
): Problem | null {
  if (hasInvisible(value)) return 'Invalid';
  const text = normalizeRequesterName(value);
  if (!text) return limits.min > 0 ? 'Required' : null;
  const length = [...text].length;
  if (length < limits.min || length > limits.max) return 'Length';
  const { skeletons, digits, count } = comparisonForms(text, prototypeOf);
  if (skeletons.some(readsAsLink)) return 'Link';
  const longestRun = Math.max(0, ...(digits.match(DIGIT_RUN) ?? []).map((run) => run.split(DIGIT).length - 1));
  if (count > limits.maxDigits || longestRun > limits.maxDigits) return 'Phone';
  const letters = (text.match(/\p{L}/gu) ?? []).length - (text.match(BLANK_LETTERS) ?? []).length;
  if (letters < limits.minLetters) return 'Letters';
  return null;
}
