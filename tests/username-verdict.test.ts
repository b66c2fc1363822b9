import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { lookupVerdict, NEGATIVE_UP_TO_SHARE, UNKNOWN_FROM_SHARE, type VerdictKind } from '@/lib/username-verdict';
import en from '@/messages/en.json';
import es from '@/messages/es.json';
import id from '@/messages/id.json';

// The headline of a reverse username lookup: a name is reported absent only when nearly every site answered clearly;
// when most sites did not answer, or some were never asked, the result is unknown, not negative.

type Status = 'running' | 'stopped' | 'done' | 'capped';
const view = (status: Status, total: number, checked: number, unknown: number, found = 0, notChecked?: number) => ({
  status,
  total,
  checked,
  unknown,
  found,
  notChecked: notChecked ?? (status === 'running' ? 0 : total - checked),
});

describe('the wording rule of a username lookup', () => {
  it('the thresholds: unknown from half the answers, a plain "none" up to one in ten', () => {
    expect(UNKNOWN_FROM_SHARE).toBe(0.5);
    expect(NEGATIVE_UP_TO_SHARE).toBe(0.1);
  });

  it('offline: 676 of 676 sites unclear is unknown, not "no profile found"', () => {
    expect(lookupVerdict(view('done', 676, 676, 676))).toEqual({
      kind: 'unknown',
      found: 0,
      clear: 0,
      unclear: 676,
      notChecked: 0,
      total: 676,
    });
  });

  it('claims nothing while it runs, however clear the answers so far', () => {
    expect(lookupVerdict(view('running', 676, 0, 0)).kind).toBe('running');
    expect(lookupVerdict(view('running', 676, 300, 0)).kind).toBe('running');
    expect(lookupVerdict(view('running', 676, 300, 0, 4)).kind).toBe('running');
    expect(lookupVerdict(view('running', 676, 300, 0)).notChecked).toBe(0);
  });

  it.each([
    // total, checked, unknown → kind (nothing found, every site answered)
    [716, 716, 0, 'none'],
    [716, 716, 71, 'none'], // 9.9 %
    [10, 10, 1, 'none'], // exactly one in ten
    [716, 716, 72, 'noneAmongClear'], // 10.06 %
    [10, 10, 4, 'noneAmongClear'],
    [10, 10, 5, 'unknown'], // exactly half
    [716, 716, 357, 'noneAmongClear'],
    [716, 716, 358, 'unknown'],
    [716, 716, 716, 'unknown'],
  ] as const)('%i sites, %i answered, %i unclear, none found → %s', (total, checked, unknown, kind) => {
    expect(lookupVerdict(view('done', total, checked, unknown)).kind).toBe(kind);
  });

  it('any site not checked (stopped or capped) makes a lookup that found nothing unknown', () => {
    expect(lookupVerdict(view('stopped', 10, 9, 0)).kind).toBe('unknownIncomplete');
    expect(lookupVerdict(view('capped', 716, 400, 0))).toMatchObject({
      kind: 'unknownIncomplete',
      notChecked: 316,
      clear: 400,
    });
    // Even if the API reported no site left, the counts decide.
    expect(lookupVerdict(view('stopped', 10, 9, 0, 0, 0))).toMatchObject({ kind: 'unknownIncomplete', notChecked: 1 });
    // A lookup stopped after the last answer is complete.
    expect(lookupVerdict(view('stopped', 10, 10, 0)).kind).toBe('none');
    expect(lookupVerdict(view('done', 0, 0, 0)).kind).toBe('unknown');
  });

  it('found profiles are found; incomplete when sites were not checked or most did not answer', () => {
    expect(lookupVerdict(view('done', 10, 10, 3, 7)).kind).toBe('found');
    expect(lookupVerdict(view('done', 10, 10, 4, 6)).kind).toBe('found');
    expect(lookupVerdict(view('done', 676, 676, 670, 2)).kind).toBe('foundIncomplete');
    expect(lookupVerdict(view('stopped', 10, 9, 3, 6)).kind).toBe('foundIncomplete');
    expect(lookupVerdict(view('capped', 10, 4, 1, 2))).toMatchObject({ kind: 'foundIncomplete', notChecked: 6 });
  });

  it('takes the found list as the API gives it', () => {
    expect(lookupVerdict({ ...view('done', 10, 10, 0), found: [{ site: 'Codes' }] })).toMatchObject({
      kind: 'found',
      found: 1,
      clear: 10,
    });
  });
});

describe('the headlines in every language', () => {
  const catalogues = { en, es, id };
  const say = (locale: keyof typeof catalogues, v: ReturnType<typeof lookupVerdict>) =>
    createTranslator({ locale, messages: catalogues[locale], namespace: 'UsernameLookup' })(
      `verdict.${v.kind as Exclude<VerdictKind, 'running'>}`,
      v,
    );

  it.each([
    ['en', 'Most sites did not answer: we cannot say whether this name is used.'],
    ['es', 'La mayoría de los sitios no respondió: no podemos saber si este nombre está en uso.'],
    ['id', 'Sebagian besar situs tidak menjawab: kami tidak bisa memastikan apakah nama ini dipakai.'],
  ] as const)('offline (%s): unknown, never "no profile found"', (locale, text) => {
    expect(say(locale, lookupVerdict(view('done', 676, 676, 676)))).toBe(text);
  });

  it.each([
    [
      'en',
      'No profile with this name was found on the 6 sites that answered clearly; 4 others did not answer, so this is not certain.',
    ],
    [
      'es',
      'No se encontró ningún perfil con este nombre en los 6 sitios que respondieron con claridad; 4 sitios no respondieron, así que no es seguro.',
    ],
    [
      'id',
      'Tidak ada profil dengan nama ini di 6 situs yang menjawab dengan jelas; 4 situs lainnya tidak menjawab, jadi hasil ini belum pasti.',
    ],
  ] as const)('some unclear answers (%s): not found among the clear ones, not certain', (locale, text) => {
    expect(say(locale, lookupVerdict(view('done', 10, 10, 4)))).toBe(text);
  });

  it('every headline reads in every language, with its counts', () => {
    const cases = [
      view('done', 10, 10, 0, 1),
      view('done', 10, 10, 3, 7),
      view('stopped', 10, 9, 3, 1),
      view('capped', 716, 400, 10, 12),
      view('done', 716, 716, 0),
      view('done', 10, 10, 1),
      view('done', 716, 716, 300),
      view('done', 716, 716, 716),
      view('stopped', 716, 1, 0),
      view('capped', 716, 400, 0),
    ].map(lookupVerdict);
    expect(new Set(cases.map((v) => v.kind)).size).toBe(6);
    for (const locale of ['en', 'es', 'id'] as const) {
      for (const v of cases) {
        const text = say(locale, v);
        expect(text).not.toMatch(/[{}]|verdict\./);
        if (v.found > 0) expect(text).toContain(String(v.found));
      }
    }
  });
});
