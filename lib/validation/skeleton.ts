import confusables from 'unhomoglyph/data.json';

/**
 * The confusable prototypes of Unicode Technical Standard #39 (Security Mechanisms, §4 "Confusable Detection"): the
 * table `confusables.txt` maps each code point that can be mistaken for another to its prototype (Cyrillic "о" → "o",
 * "З" → "3", one-dot leader "․" → ".", "m" → "rn"). The data comes from the `unhomoglyph` package (nodeca, MIT), which
 * is generated from that file; it is about 28 KB gzipped, so the browser forms load this module on demand
 * (`loadPrototypes` in ./requester-name) and only the API imports it directly.
 */
const PROTOTYPES: Readonly<Record<string, string>> = confusables;

/**
 * The prototype of one code point (`char`, a string of one code point, as a `for … of` loop yields), or `char` itself
 * when confusables.txt lists none. Pure; never throws.
 */
export function prototypeOf(char: string): string {
  return Object.hasOwn(PROTOTYPES, char) ? PROTOTYPES[char] : char;
}
