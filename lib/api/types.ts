/**
 * Shapes the pages read from the API (see the OpenAPI document at /api_f/v1/openapi.json); the server's services
 * return these same types.
 */

/** What the number itself tells, from the numbering plan (not the phone's position). */
export type PhoneInfo = {
  e164: string;
  /** True when the number is in an assigned range of the plan; false for a possible but unassigned number. */
  valid: boolean;
  countryCode: string;
  countryName: string;
  callingCode: string;
  nationalNumber: string;
  international: string;
  lineType: string;
  carrier: string | null;
  region: string | null;
  timeZones: string[];
};

/** Approximate area of an IP address; `accuracyRadiusKm` only when the database has one (DB-IP Lite has not). */
export type IpInfo = {
  ip: string | null;
  status: 'found' | 'unknown';
  countryCode: string | null;
  region: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  accuracyRadiusKm: number | null;
};

export type OrderView = {
  code: string;
  status: string;
  email: string;
  phone: string;
  amountMinor: number;
  currency: string;
  amount: string;
  monthlyAmount: string;
  trialHours: number;
};

export type RequestStatus = 'queued' | 'sms_sent' | 'opened' | 'sharing' | 'stopped' | 'declined' | 'expired';

/** A position: degrees, `accuracy` in metres (null for an IP area without a radius). */
export type Position = {
  source: 'gps' | 'ip';
  latitude: number;
  longitude: number;
  accuracy: number | null;
  label: string | null;
  recordedAt: string;
};

export type LocationTrace = {
  id: string;
  phone: string;
  status: RequestStatus;
  createdAt: string;
  sharingUntil: string | null;
  positions: Position[];
};

export type ConsentView = {
  product: string;
  requester: string;
  status: RequestStatus;
  expiresAt: string;
  sharingUntil: string | null;
  presets: number[];
};

export type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number };
