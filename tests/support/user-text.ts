import fc from 'fast-check';
import unhomoglyph from 'unhomoglyph';

// Generators and independent checks for the property tests of the rule for text shown to the phone's owner
// (lib/validation/requester-name.ts): tests/requester-name.test.ts and tests/owner-note.test.ts.

/** Code points a blank or disguised name is made of: fillers, format characters, marks, selectors, tags. */
export const INVISIBLES = [
  ...'\u3164\u115F\u1160\uFFA0\u2800\u17B4\u17B5\u061C\u00AD\u034F\u180E\u180B\uFFF9\uFFFA\uFFFB\u2028\u2029',
  ...'\u200B\u200C\u200D\u200E\u202E\u2066\u2060\uFEFF\uFE0F\uFE0E\u0301\u0308\u20E3\u0000\u0007\t',
  ...[
    '\u{1D173}',
    '\u{1D17A}',
    '\u{E0001}',
    '\u{E0041}',
    '\u{E0067}',
    '\u{E007F}',
    '\u{E0100}',
    '\u{F8FF}',
    '\u{10FFFF}',
  ],
];
/** Look-alikes of dots, at signs, slashes, colons, digits and Latin letters, and the plain ones. */
const LOOKALIKES = [
  ...'.\uFF0E\u3002\uFF61\u2024\u0660\u06F0@\uFF20\uFE6B:\uFF1A/\u2215-()+ ',
  ...'\u043E\u0430\u0435\u0441\u0455\u0501\u04BB\u0410\u0406\u2465\u2464\u24EA\u2076\uFF16\u0431\u0417\u0665\u0661150',
];
const LETTERS = [...'acemowtpshxAMIlé\u00F1жЖ王明กابᄀ한'];
const WORDS = ['com', 'www', 'http', 'ly', 'Anna', 'evil', 'net'];
const EMOJI = [
  '😀',
  '❤️',
  '👩\u200D👧',
  '👍🏽',
  '🇪🇸',
  '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
  '1\uFE0F\u20E3',
];

/** Strings of letters, words, look-alikes, invisibles, emoji and any code point or grapheme, up to `maxLength` units. */
export function userTexts(maxLength: number) {
  const unit = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...LETTERS) },
    { weight: 2, arbitrary: fc.constantFrom(...WORDS) },
    { weight: 3, arbitrary: fc.constantFrom(...LOOKALIKES) },
    { weight: 2, arbitrary: fc.constantFrom(...INVISIBLES) },
    { weight: 1, arbitrary: fc.constantFrom(...EMOJI) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  );
  return fc.string({ unit, maxLength });
}

/**
 * Whether every invisible code point of `text` is part of an emoji: a joiner between two emoji, a variation selector
 * or keycap after one, or the tags of a flag (🏴 … U+E007F). Stated code point by code point, independently of the rule.
 */
export function onlyEmojiInvisibles(text: string): boolean {
  const cps = [...text];
  const emoji = (c: string | undefined) => !!c && /[\p{Emoji}\p{EMod}\uFE0F\u20E3\u{E007F}]/u.test(c);
  let inTags = false;
  return cps.every((c, i) => {
    if (c === '\u{1F3F4}') inTags = true;
    if (/[\u{E0020}-\u{E007F}]/u.test(c)) {
      const ok = inTags;
      if (c === '\u{E007F}') inTags = false;
      return ok;
    }
    if (!/[\u{1F3F4}]/u.test(c)) inTags = false;
    if (c === '\u200D') return emoji(cps[i - 1]) && /[\p{Emoji}\p{RI}]/u.test(cps[i + 1] ?? '');
    if (c === '\uFE0E' || c === '\uFE0F') return /\p{Emoji}/u.test(cps[i - 1] ?? '');
    return !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800]/u.test(c);
  });
}

/**
 * The form links are looked for on, computed with the `unhomoglyph` package's own function (not the rule's code):
 * NFKC, IDNA full stops as ".", digits as "9" (a digit is read as a digit, never as a letter), NFD, confusable
 * prototypes, marks dropped.
 */
export function skeletonOf(text: string): string {
  const nfkc = text.normalize('NFKC').replace(/[\u3002\uFF0E\uFF61]/gu, '.');
  return unhomoglyph(nfkc.replace(/\p{N}/gu, '9').normalize('NFD')).normalize('NFD').replace(/\p{M}/gu, '');
}

/** Whether `text`'s skeleton reads as a URL, a web address or an e-mail address, or it has more than 4 digits. */
export function readsAsContact(text: string): boolean {
  const skeleton = skeletonOf(text);
  return (
    /@|:\/\/|\bwww\.|[\p{L}\p{N}-]\.[a-z]{2,}/iu.test(skeleton) ||
    (text.normalize('NFKC').match(/\p{N}/gu) ?? []).length > 4
  );
}
