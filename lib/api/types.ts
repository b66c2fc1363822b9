import type { BuyerState, RequestState } from '../request-machine';
/**
 * Shapes the pages read from the API (see the OpenAPI document at /api_f/v1/openapi.json); the server's services
 * return these same types. Shapes move from here to their zod contract in lib/contracts/ one area at a time
 * (docs/decisions/0010-one-contract-per-payload.md); import moved ones from there.
 */

/** Moved to lib/contracts; re-exported for the site's sections (components/site), which another change owns now. */
export type { IpInfo, PhoneInfo } from '../contracts/lookups';
export type { PricePlan } from '../contracts/orders';

/** What the buyer sees of a request's state (lib/request-machine.ts `buyerState`). */
export type RequestStatus = BuyerState;

/**
 * What the owner is told of the account that asks (server/services/consent.ts `requesterFacts`): created less than 24
 * hours ago (`newAccount`), the month it was created (`since`, `YYYY-MM`, UTC), the location requests it made in all
 * (`requests`, the one shown included) and how many of them their owners reported as abuse (`reported`).
 */
export type RequesterFacts = { newAccount: boolean; since: string; requests: number; reported: number };

export type ConsentView = {
  product: string;
  /** The requester's e-mail, masked (`u•••@example.com`). */
  requester: string;
  /** Who asks, as the buyer wrote it; null on requests from before it was asked. */
  requesterName: string | null;
  /** What we know of the account that asks, shown beside the name. */
  facts: RequesterFacts;
  /** The buyer's note to the owner, plain text ≤ 140 characters; null when none. */
  note: string | null;
  /** The request's state (lib/request-machine.ts). */
  status: RequestState;
  /** The owner reported this request as abuse. */
  reported: boolean;
  /** For a stopped request: stopped by the owner, or the chosen duration ran out. */
  ended: 'owner' | 'time' | null;
  /** The buyer's subscription ended and the request with it. */
  withdrawn: boolean;
  /** The browser refused the location when the owner last tapped Share (nothing was stored). */
  locationDenied: boolean;
  expiresAt: string;
  sharingUntil: string | null;
  presets: number[];
};

export type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number };

/** One breach an account e-mail appears in (the fields of HIBP's breach model the page shows). */
export type BreachView = {
  /** HIBP's stable name, e.g. `Adobe`. */
  name: string;
  /** Display title. */
  title: string;
  /** The breached site's domain; '' when HIBP names none. */
  domain: string;
  /** When the breach happened, `YYYY-MM-DD`. */
  breachDate: string;
  /** The kinds of data exposed, as HIBP names them (e.g. `Email addresses`, `Passwords`). */
  dataClasses: string[];
  isVerified: boolean;
  isSensitive: boolean;
};

/** `GET /account/dataLeaks`: not configured on this server, or the account e-mail's breaches and when checked. */
export type DataLeakReport =
  { configured: false } | { configured: true; email: string; checkedAt: string; breaches: BreachView[] };

/** `GET /usernameLookup/{id}`: a reverse username lookup's progress and the profiles found so far. */
export type UsernameLookupView = {
  username: string;
  /**
   * `stopped` by the visitor; `capped` when the service's hourly budget of outbound requests ran out before every
   * site was asked (`notChecked` of them were not).
   */
  status: 'running' | 'stopped' | 'done' | 'capped';
  includeNsfw: boolean;
  /** Sites the lookup covers. */
  total: number;
  /** Sites that answered so far (found, not found or unknown). */
  checked: number;
  /** Sites never asked, once the lookup is over (stopped or capped); 0 while it runs. */
  notChecked: number;
  /** Answers that fit neither rule (errors, time-outs, blocks, changed pages). */
  unknown: number;
  found: { site: string; category: string; url: string }[];
  /** ISO time after which the result is deleted. */
  expiresAt: string;
};
