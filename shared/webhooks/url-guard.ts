import { isIP } from 'node:net';
import type { Environment } from '../domain/tenancy.js';

/**
 * The SSRF guard of webhook URLs (decisions.md section 8): in production a URL must be https and
 * every address its host resolves to must be public. Checked at registration and again at each
 * delivery, whose connection then uses the address checked (no second lookup: DNS rebinding).
 * Sandbox may use http and local addresses (http://127.0.0.1:PORT/hook for local testing).
 */

const ipv4ToInt = (ip: string) => ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];

function blockedV4(ip: string): boolean {
  const value = ipv4ToInt(ip);
  return V4_BLOCKED.some(([base, bits]) => Math.floor(value / 2 ** (32 - bits)) === Math.floor(ipv4ToInt(base) / 2 ** (32 - bits)));
}

/** The 8 16-bit groups of an IPv6 address (embedded dotted IPv4 included). */
function v6Groups(ip: string): number[] {
  let address = ip.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const v = ipv4ToInt(dotted[1]!);
    address = address.slice(0, -dotted[1]!.length) + `${Math.floor(v / 65536).toString(16)}:${(v % 65536).toString(16)}`;
  }
  const [head, tail] = address.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function blockedV6(ip: string): boolean {
  const g = v6Groups(ip);
  const v4Tail = () => `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  if (g.every((x) => x === 0)) return true; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // ::1
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return blockedV4(v4Tail()); // ::ffff:a.b.c.d
  if (g.slice(0, 6).every((x) => x === 0)) return true; // ::a.b.c.d (deprecated IPv4-compatible)
  if (g[0] === 0x64 && g[1] === 0xff9b) return blockedV4(v4Tail()); // NAT64 64:ff9b::/96
  if ((g[0]! & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g[0]! & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g[0]! & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  return false;
}

/** Whether an address is private, loopback, link-local, or otherwise not a public unicast address. */
export function isBlockedAddress(ip: string): boolean {
  const unbracketed = ip.replace(/^\[|\]$/g, '');
  const kind = isIP(unbracketed);
  if (kind === 4) return blockedV4(unbracketed);
  if (kind === 6) return blockedV6(unbracketed);
  return true;
}

export type Resolver = (host: string) => Promise<string[]>;

export interface UrlProblem {
  reason: string;
}

/** Parses and checks a webhook URL for an environment; answers the addresses allowed, or a problem. */
export async function checkWebhookUrl(raw: string, environment: Environment, resolve: Resolver): Promise<{ ok: true; url: URL; addresses: string[] } | { ok: false; reason: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  const production = environment === 'PRODUCTION';
  if (production ? url.protocol !== 'https:' : url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: production ? 'must use https in production' : 'must use http or https' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return { ok: false, reason: 'does not resolve' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'does not resolve' };
  if (production && addresses.some(isBlockedAddress)) return { ok: false, reason: 'must not resolve to a private, loopback or link-local address' };
  return { ok: true, url, addresses };
}
