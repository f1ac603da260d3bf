import { isIP } from 'node:net';
import type { Environment } from '../domain/tenancy.js';

/**
 * The SSRF guard of webhook URLs (decisions.md section 8; docs/api.md "Webhooks: URL rules"), in
 * both environments: every address a receiver's host is or resolves to must be public unicast:
 * no private, loopback, link-local, unique-local, CGNAT, metadata or reserved address, nor one of
 * those embedded in IPv6 (IPv4-mapped and -translated, NAT64, 6to4; Teredo refused whole), and no
 * cloud metadata or cloud-internal host name. IPv4 spelled otherwise (`2130706433`, `0177.0.0.1`,
 * `0x7f.1`, `127.1`) is normalized to dotted form by WHATWG URL parsing before these checks. One
 * exception: a sandbox webhook of the local run (npm start, LOCAL_RUN) may use a loopback
 * receiver (127.0.0.0/8, ::1), never in a deployed stage. Production URLs must be https.
 * Checked at registration and again at each delivery, whose connection then uses the address
 * checked (no second lookup: DNS rebinding).
 */

export interface UrlGuardOptions {
  /** The service runs locally (npm start, the test fixture): its sandbox may deliver to loopback. */
  localRun: boolean;
}

const ipv4ToInt = (ip: string) => ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const inV4Block = (ip: string, [base, bits]: [string, number]) =>
  Math.floor(ipv4ToInt(ip) / 2 ** (32 - bits)) === Math.floor(ipv4ToInt(base) / 2 ** (32 - bits));
const blockedV4 = (ip: string): boolean => V4_BLOCKED.some((block) => inV4Block(ip, block));

/** The 8 16-bit groups of an IPv6 address (embedded dotted IPv4 included). */
function v6Groups(ip: string): number[] {
  let address = ip.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const v = ipv4ToInt(dotted[1]!);
    address =
      address.slice(0, -dotted[1]!.length) + `${Math.floor(v / 65536).toString(16)}:${(v % 65536).toString(16)}`;
  }
  const [head, tail] = address.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address in two groups of an IPv6 address. */
const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
const zeros = (groups: number[]) => groups.every((g) => g === 0);

function blockedV6(ip: string): boolean {
  const g = v6Groups(ip);
  const [g0, g1, g2, g3] = g as [number, number, number, number];
  if (zeros(g.slice(0, 5)) && g[5] === 0xffff) return blockedV4(v4Of(g[6]!, g[7]!)); // ::ffff:a.b.c.d, mapped
  if (zeros(g.slice(0, 4)) && g[4] === 0xffff && g[5] === 0) return blockedV4(v4Of(g[6]!, g[7]!)); // ::ffff:0:a.b.c.d, translated (SIIT)
  if (zeros(g.slice(0, 6))) return true; // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d
  if (g0 === 0x64 && g1 === 0xff9b && zeros(g.slice(2, 6))) return blockedV4(v4Of(g[6]!, g[7]!)); // NAT64 64:ff9b::/96
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true; // local-use NAT64 64:ff9b:1::/48 (RFC 8215)
  if (g0 === 0x2002) return blockedV4(v4Of(g1, g2)); // 6to4 2002:V4ADDR::/48
  if (g0 === 0x2001 && g1 === 0) return true; // Teredo 2001::/32: tunnels to an address of its own choosing
  if (g0 === 0x2001 && g1 === 0x0db8) return true; // documentation
  if (g0 === 0x0100 && zeros([g1, g2, g3])) return true; // discard-only 100::/64
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return true; // link-local fe80::/10, site-local fec0::/10
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local fc00::/7 (AWS metadata fd00:ec2::254)
  if ((g0 & 0xff00) === 0xff00) return true; // multicast
  return false;
}

const unbracket = (host: string) => host.replace(/^\[|\]$/g, '');

/** Whether an address is private, loopback, link-local, or otherwise not a public unicast address (anything that is no IP address too). */
export function isBlockedAddress(ip: string): boolean {
  const address = unbracket(ip);
  const kind = isIP(address);
  if (kind === 4) return blockedV4(address);
  if (kind === 6) return blockedV6(address);
  return true;
}

/** 127.0.0.0/8 and ::1 (not their IPv4-mapped forms: a local receiver listens on one of these). */
export function isLoopbackAddress(ip: string): boolean {
  const address = unbracket(ip);
  const kind = isIP(address);
  if (kind === 4) return inV4Block(address, ['127.0.0.0', 8]);
  if (kind === 6) return v6Groups(address).every((group, i) => group === (i === 7 ? 1 : 0));
  return false;
}

/** Cloud metadata services by name, and the cloud-internal zones (GCP `*.internal`, AWS `*.ec2.internal`, `*.compute.internal`). */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);
const INTERNAL_SUFFIX = '.internal';

/** Whether a host name names a metadata service or a cloud-internal host (any case, a trailing dot ignored); an address is no host name. */
export function isBlockedHostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return METADATA_NAMES.has(name) || name.endsWith(INTERNAL_SUFFIX);
}

/** Whether a webhook of `environment` may connect to `ip`: a public address, or loopback in the sandbox of the local run. */
export function addressAllowed(ip: string, environment: Environment, options: UrlGuardOptions): boolean {
  if (!isBlockedAddress(ip)) return true;
  return environment === 'SANDBOX' && options.localRun && isLoopbackAddress(ip);
}

export type Resolver = (host: string) => Promise<string[]>;

export interface UrlProblem {
  reason: string;
}

const BLOCKED_REASON =
  'must not be or resolve to a private, loopback, link-local, metadata or other non-public address';
const LOOPBACK_REASON =
  'must not be or resolve to a loopback address (allowed only for sandbox webhooks of a local run, npm start)';

/** Parses and checks a webhook URL for an environment; answers the addresses allowed, or a problem. */
export async function checkWebhookUrl(
  raw: string,
  environment: Environment,
  resolve: Resolver,
  options: UrlGuardOptions = { localRun: false },
): Promise<{ ok: true; url: URL; addresses: string[] } | { ok: false; reason: string }> {
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
  // WHATWG parsing has already turned every IPv4 spelling into dotted form and bracketed IPv6.
  const host = unbracket(url.hostname);
  if (!isIP(host) && isBlockedHostName(host))
    return { ok: false, reason: 'must not name a cloud metadata service or a cloud-internal host' };
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return { ok: false, reason: 'does not resolve' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'does not resolve' };
  const refused = addresses.filter((address) => !addressAllowed(address, environment, options));
  if (refused.length > 0)
    return { ok: false, reason: refused.every(isLoopbackAddress) ? LOOPBACK_REASON : BLOCKED_REASON };
  return { ok: true, url, addresses };
}
