/**
 * The guard for every host a user names (data connections; the SSH terminal later): a user-given
 * host may not reach the server's own machine, its private network or the cloud metadata service
 * unless the operator allows it (`CONNECTION_ALLOW`).
 *
 * `HostGuard.check(host, port)` resolves the name once (`dns.lookup`, every address), classifies
 * each address and returns the first one that may be reached. The caller must connect to that
 * address, never to the name again (a second resolution could answer something else: DNS
 * rebinding); the name is only kept where TLS needs it (server name, certificate check).
 *
 * Refused unless allowed: loopback (127/8, ::1), unspecified (0/8, ::), link-local (169.254/16
 * with the metadata address 169.254.169.254, fe80::/10), private (10/8, 172.16/12, 192.168/16,
 * 100.64/10, fc00::/7 with fd00:ec2::254, fec0::/10), multicast and broadcast, and the reserved
 * and documentation blocks; IPv4-mapped, IPv4-compatible, NAT64 and 6to4 IPv6 forms are judged
 * by the IPv4 address they carry. Numeric forms such as `2130706433`, `0x7f000001` or `0177.1`
 * are normalised by the resolver to the address they mean and judged as that.
 */
import dns from 'node:dns';
import net from 'node:net';

/** What an address is, as the guard sees it (`public` may be reached). */
export type AddressClass = 'public' | 'loopback' | 'unspecified' | 'linkLocal' | 'private' | 'multicast' | 'reserved';

/** Why a host was refused (for the server's log; users only see one generic message). */
export type HostRefusal = AddressClass | 'invalidHost' | 'invalidPort' | 'unresolved';

/** A host the guard let through: connect to `address`, never to `host`. */
export interface CheckedHost {
  /** The host as the user gave it (without IPv6 brackets): for TLS only. */
  host: string;
  /** The address that was checked. */
  address: string;
  family: 4 | 6;
  port: number;
}

/** A host the guard refused. The message is for logs; never show it to the user. */
export class HostRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly reason: HostRefusal,
    readonly address: string | null = null,
  ) {
    super(`host ${JSON.stringify(host)} refused: ${reason}${address ? ` (${address})` : ''}`);
    this.name = 'HostRefusedError';
  }
}

/** One allowed block of addresses. */
interface Cidr {
  family: 4 | 6;
  base: bigint;
  prefix: number;
  text: string;
}

/** The operator's allow list, parsed: address blocks and host names. */
export interface AllowList {
  cidrs: readonly Cidr[];
  /** Lower case, without a trailing dot. */
  hosts: readonly string[];
}

/** An empty allow list: only public addresses. */
export const NO_ALLOW: AllowList = { cidrs: [], hosts: [] };

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

function v4ToBig(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** A textual IPv6 address (as `net.isIPv6` accepts it, zone removed) as a 128-bit number. */
function v6ToBig(ip: string): bigint {
  let text = ip.split('%')[0]!.toLowerCase();
  // A trailing dotted IPv4 part becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4ToBig(dotted[1]!);
    text = text.slice(0, -dotted[1]!.length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  if (groups.length !== 8) throw new Error(`not an IPv6 address: ${ip}`);
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

function inBlock(value: bigint, bits: number, base: bigint, prefix: number): boolean {
  const shift = BigInt(bits - prefix);
  return value >> shift === base >> shift;
}

const V4_BLOCKS: [string, number, AddressClass][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // shared address space (CGNAT; also cloud metadata, e.g. 100.100.100.200)
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'linkLocal'], // with the metadata address 169.254.169.254
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // with the broadcast address 255.255.255.255
];

const V6_BLOCKS: [string, number, AddressClass][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'private'], // local-use NAT64
  ['100::', 64, 'reserved'], // discard
  ['2001::', 32, 'reserved'], // Teredo (carries an IPv4 address we cannot judge)
  ['2001:db8::', 32, 'reserved'], // documentation
  ['fc00::', 7, 'private'], // unique local, with fd00:ec2::254 (cloud metadata)
  ['fe80::', 10, 'linkLocal'],
  ['fec0::', 10, 'private'], // site-local (deprecated)
  ['ff00::', 8, 'multicast'],
];

const V4_TABLE = V4_BLOCKS.map(([a, p, c]) => ({ base: v4ToBig(a), prefix: p, cls: c }));
const V6_TABLE = V6_BLOCKS.map(([a, p, c]) => ({ base: v6ToBig(a), prefix: p, cls: c }));

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), or null. */
function embeddedV4(v6: bigint): bigint | null {
  if (inBlock(v6, 128, 0xffff00000000n, 96)) return v6 & 0xffffffffn; // ::ffff:a.b.c.d
  if (inBlock(v6, 128, 0n, 96) && v6 > 1n) return v6 & 0xffffffffn; // ::a.b.c.d (deprecated)
  if (inBlock(v6, 128, v6ToBig('64:ff9b::'), 96)) return v6 & 0xffffffffn; // NAT64
  if (inBlock(v6, 128, v6ToBig('2002::'), 16)) return (v6 >> 80n) & 0xffffffffn; // 6to4
  return null;
}

function classifyV4(v: bigint): AddressClass {
  for (const b of V4_TABLE) if (inBlock(v, 32, b.base, b.prefix)) return b.cls;
  return 'public';
}

/**
 * What a textual IP address is. Throws on text that is not an IP address (names and numeric
 * shorthands must go through the resolver first).
 */
export function classifyAddress(ip: string): AddressClass {
  const family = net.isIP(ip.split('%')[0]!);
  if (family === 4) return classifyV4(v4ToBig(ip));
  if (family !== 6) throw new Error(`not an IP address: ${ip}`);
  const v = v6ToBig(ip);
  const v4 = embeddedV4(v);
  if (v4 !== null) return classifyV4(v4);
  for (const b of V6_TABLE) if (inBlock(v, 128, b.base, b.prefix)) return b.cls;
  return 'public';
}

function parseCidr(entry: string): Cidr | null {
  const [addr, len, ...rest] = entry.split('/');
  if (rest.length || !addr) return null;
  const family = net.isIP(addr);
  if (family === 0) return null;
  const bits = family === 4 ? 32 : 128;
  if (len !== undefined && !/^\d{1,3}$/.test(len)) return null;
  const prefix = len === undefined ? bits : Number(len);
  if (prefix > bits) return null;
  const value = family === 4 ? v4ToBig(addr) : v6ToBig(addr);
  const shift = BigInt(bits - prefix);
  return { family: family as 4 | 6, base: (value >> shift) << shift, prefix, text: entry };
}

/**
 * Parses `CONNECTION_ALLOW`: comma-separated CIDR blocks (`10.1.0.0/16`, `fd12::/64`), single
 * addresses (`127.0.0.1`, `::1`) and host names (`db.internal`, matched as the user writes the
 * host, case-insensitively). Throws on anything else, so a bad value fails at start-up.
 */
export function parseAllowList(text: string | undefined | null): AllowList {
  const cidrs: Cidr[] = [];
  const hosts: string[] = [];
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const cidr = parseCidr(entry);
    if (cidr) {
      cidrs.push(cidr);
      continue;
    }
    const name = entry.toLowerCase().replace(/\.$/, '');
    // A dotted number (`127.1`, `0x7f000001`) is not a host name: say what is wrong.
    if (entry.includes('/') || /^[0-9.]+$/.test(name) || /^0x[0-9a-f]+$/.test(name) || !HOST_NAME.test(name)) {
      throw new Error(`CONNECTION_ALLOW: "${entry}" is neither an IP address, a CIDR block (e.g. 10.0.0.0/8) nor a host name`);
    }
    hosts.push(name);
  }
  return { cidrs, hosts };
}

/** Whether `ip` lies in one of the allowed blocks (an IPv4 address also in its IPv6-mapped form and back). */
export function isAllowedAddress(list: AllowList, ip: string): boolean {
  const family = net.isIP(ip.split('%')[0]!);
  if (family === 0) return false;
  const v = family === 4 ? v4ToBig(ip) : v6ToBig(ip);
  const v4 = family === 4 ? v : ((): bigint | null => {
    // Only the plain mapped form counts as the IPv4 address for the allow list.
    return inBlock(v, 128, 0xffff00000000n, 96) ? v & 0xffffffffn : null;
  })();
  for (const c of list.cidrs) {
    if (c.family === 6 && inBlock(family === 6 ? v : 0xffff00000000n | v, 128, c.base, c.prefix)) return true;
    if (c.family === 4 && v4 !== null && inBlock(v4, 32, c.base, c.prefix)) return true;
  }
  return false;
}

/** `dns.lookup` with every address, as the guard calls it (injectable for tests). */
export type LookupAll = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: LookupAll = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** The guard. One instance per configuration; stateless otherwise. */
export class HostGuard {
  readonly allow: AllowList;

  constructor(
    allow: AllowList | string | readonly string[] = NO_ALLOW,
    private readonly lookup: LookupAll = systemLookup,
  ) {
    this.allow = typeof allow === 'string' ? parseAllowList(allow) : Array.isArray(allow) ? parseAllowList(allow.join(',')) : (allow as AllowList);
  }

  /** Whether the user's host is one of the allowed host names. */
  private allowedName(host: string): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    return this.allow.hosts.includes(name);
  }

  /**
   * Resolves `host` once and returns the first of its addresses that may be reached: a public
   * one, one in an allowed block, or any when the name itself is allowed.
   *
   * @throws HostRefusedError when none may (or the host or port is malformed, or nothing resolves).
   */
  async check(rawHost: string, port: number): Promise<CheckedHost> {
    const host = rawHost.trim().replace(/^\[(.*)\]$/, '$1');
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new HostRefusedError(host, 'invalidPort');
    if (!host || host.length > 253 || /[\s/\\@?#]/.test(host)) throw new HostRefusedError(host, 'invalidHost');
    let found: { address: string; family: number }[];
    const literal = net.isIP(host.split('%')[0]!);
    if (literal) found = [{ address: host, family: literal }];
    else {
      try {
        found = await this.lookup(host);
      } catch {
        throw new HostRefusedError(host, 'unresolved');
      }
    }
    if (found.length === 0) throw new HostRefusedError(host, 'unresolved');
    const nameAllowed = this.allowedName(host);
    let first: { reason: AddressClass; address: string } | null = null;
    for (const a of found) {
      const cls = classifyAddress(a.address);
      if (cls === 'public' || nameAllowed || isAllowedAddress(this.allow, a.address)) {
        return { host, address: a.address, family: a.family === 6 ? 6 : 4, port };
      }
      first ??= { reason: cls, address: a.address };
    }
    throw new HostRefusedError(host, first!.reason, first!.address);
  }
}
