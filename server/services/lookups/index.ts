// Lookups: the free tools and extras that look something up for a visitor or a subscriber (docs/features.md "Extra
// features: data-leak check, username lookup, a note to the owner"; docs/rules.md "The product" for phone facts):
// the reverse username lookup over the WhatsMyName list, with its SSRF-guarded requests (OWASP SSRF Prevention Cheat
// Sheet), the data-leak check of a subscriber's own e-mail (Have I Been Pwned), and what a phone number itself tells
// (its numbering plan). Every write of `username_checks`, `username_check_results` and `breach_checks` is in this
// folder (docs/decisions/0020-domain-folders.md).
//
// This file is the one entry the rest of the app imports:
// - username lookup: ./username-lookup.ts (lookups, the job, the sweep), ./username-sites.ts (the site list),
//   ./username-fetch.ts (guarded outbound requests);
// - ./data-leaks.ts: the data-leak check;
// - ./phone-info.ts: numbering-plan facts of a number.
// The verdict rule of a site (decide) and the path check are exported so that tests check them where they are defined.
export {
  checkSite,
  createLookup,
  decide,
  lookupView,
  pruneLookups,
  runUsernameCheck,
  stopLookup,
} from './username-lookup';
export { loadSiteList, siteList, sitesToCheck, type WmnSite } from './username-sites';
export { pathAsWrittenAndParsed } from './username-fetch';
export { dataLeakReport } from './data-leaks';
export { phoneInfo } from './phone-info';
