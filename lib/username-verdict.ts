import type { UsernameLookupView } from './contracts/username-lookup';

/**
 * Share of unclear answers (`unknown` of the sites that answered) from which a lookup that found nothing says it
 * cannot tell whether the name is used: when half the sites or more did not answer clearly, "no profile found" would
 * be a guess. A lookup run without a network ends here (every site is unknown).
 */
export const UNKNOWN_FROM_SHARE = 0.5;

/**
 * Share of unclear answers up to which a lookup that found nothing says plainly "no profile found": nearly every site
 * (nine in ten or more) answered clearly. Between this and `UNKNOWN_FROM_SHARE` it says no profile was found on the
 * sites that answered clearly and that the others did not answer.
 */
export const NEGATIVE_UP_TO_SHARE = 0.1;

/**
 * What a lookup's headline says:
 * - `running`: still checking; nothing is concluded (no "every site answered" before the end);
 * - `found`: profiles found, the search complete and most sites answered clearly;
 * - `foundIncomplete`: profiles found, but sites were not checked or most did not answer (there may be more);
 * - `none`: nothing found and nearly every site answered clearly (`NEGATIVE_UP_TO_SHARE`);
 * - `noneAmongClear`: nothing found on the sites that answered clearly, but some did not answer;
 * - `unknown`: nothing found and most sites did not answer (`UNKNOWN_FROM_SHARE`): the result is unknown, not negative;
 * - `unknownIncomplete`: nothing found and the search stopped (by the visitor, or the service's hourly budget) before
 *   every site was checked: also unknown.
 */
export type VerdictKind =
  'running' | 'found' | 'foundIncomplete' | 'none' | 'noneAmongClear' | 'unknown' | 'unknownIncomplete';

/** A lookup's headline and the counts its wording needs (all counts are sites). */
export type Verdict = {
  kind: VerdictKind;
  /** Profiles found. */
  found: number;
  /** Sites that answered clearly (found or not found). */
  clear: number;
  /** Sites that answered without a clear answer (errors, time-outs, blocked, changed pages). */
  unclear: number;
  /** Sites never asked once the lookup is over (0 while it runs). */
  notChecked: number;
  /** Sites the lookup covers. */
  total: number;
};

/**
 * Words a username lookup's result honestly (docs/features.md, "Reverse username lookup"): a name is reported absent only
 * when nearly every site said so clearly; when most sites did not answer, or some were never asked, the result is
 * unknown, not negative. Takes the API's view of the lookup (GET /usernameLookup/{id}: `status`, `total`, `checked`,
 * `unknown`, `notChecked`, `found`) and returns the `Verdict` whose `kind` names the headline (the `UsernameLookup.verdict`
 * messages). Pure; never throws. A lookup over with no answer at all (`checked` 0) is `unknown`/`unknownIncomplete`.
 */
export function lookupVerdict(
  view: Pick<UsernameLookupView, 'status' | 'total' | 'checked' | 'unknown' | 'notChecked'> & {
    found: number | readonly unknown[];
  },
): Verdict {
  const found = typeof view.found === 'number' ? view.found : view.found.length;
  const unclear = Math.min(view.unknown, view.checked);
  const running = view.status === 'running';
  // Once over, any site never answered makes the result incomplete, whatever the API reports as `notChecked`.
  const notChecked = running ? 0 : Math.max(view.notChecked, view.total - view.checked, 0);
  const base = { found, clear: view.checked - unclear, unclear, notChecked, total: view.total };
  if (running) return { kind: 'running', ...base };
  const share = view.checked > 0 ? unclear / view.checked : 1;
  const incomplete = notChecked > 0;
  if (found > 0) {
    return { kind: incomplete || share >= UNKNOWN_FROM_SHARE ? 'foundIncomplete' : 'found', ...base };
  }
  if (incomplete) return { kind: 'unknownIncomplete', ...base };
  if (share >= UNKNOWN_FROM_SHARE) return { kind: 'unknown', ...base };
  if (share <= NEGATIVE_UP_TO_SHARE) return { kind: 'none', ...base };
  return { kind: 'noneAmongClear', ...base };
}
