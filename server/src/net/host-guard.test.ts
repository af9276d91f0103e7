import { describe, expect, it } from 'vitest';
import { HostGuard, HostRefusedError, classifyAddress, isAllowedAddress, parseAllowList, type LookupAll } from './host-guard';

/** A resolver answering from a table (unknown names fail like ENOTFOUND). */
const table =
  (names: Record<string, string[]>): LookupAll =>
  async (host) => {
    const found = names[host.toLowerCase()];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

async function refusal(guard: HostGuard, host: string, port = 3306): Promise<string> {
  try {
    const ok = await guard.check(host, port);
    return `allowed ${ok.address}`;
  } catch (err) {
    expect(err).toBeInstanceOf(HostRefusedError);
    return (err as HostRefusedError).reason;
  }
}

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['febf:ffff::1', 'linkLocal'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.100.100.200', 'private'],
    ['100.127.255.255', 'private'],
    ['fc00::1', 'private'],
    ['fd00:ec2::254', 'private'],
    ['fdff:ffff::1', 'private'],
    ['fec0::1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['100::1', 'reserved'],
    // IPv6 forms that carry an IPv4 address are judged by it
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:169.254.169.254', 'linkLocal'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    // reachable
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['172.32.0.1', 'public'],
    ['172.15.255.255', 'public'],
    ['100.128.0.1', 'public'],
    ['169.255.0.1', 'public'],
    ['192.169.0.1', 'public'],
    ['11.0.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['2002:808:808::1', 'public'],
    ['fe00::1', 'public'],
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it('refuses text that is not an address', () => {
    expect(() => classifyAddress('localhost')).toThrow();
    expect(() => classifyAddress('2130706433')).toThrow();
  });
});

describe('parseAllowList', () => {
  it('reads CIDR blocks, single addresses and host names', () => {
    const list = parseAllowList(' 127.0.0.1/32, 10.1.0.0/16 ,::1, fd12:3456::/32,DB.Internal., mariadb ,');
    expect(list.cidrs.map((c) => [c.family, c.prefix])).toEqual([
      [4, 32],
      [4, 16],
      [6, 128],
      [6, 32],
    ]);
    expect(list.hosts).toEqual(['db.internal', 'mariadb']);
    expect(parseAllowList('')).toEqual({ cidrs: [], hosts: [] });
    expect(parseAllowList(undefined)).toEqual({ cidrs: [], hosts: [] });
  });

  it.each(['10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/8/1', '127.1', '0x7f000001', '2130706433', 'bad host', 'http://x', 'a..b', '-x.com', '10.0.0.256'])(
    'refuses %j',
    (bad) => {
      expect(() => parseAllowList(bad)).toThrow(/CONNECTION_ALLOW/);
    },
  );

  it('matches addresses by block, IPv4 also in its mapped IPv6 form', () => {
    const list = parseAllowList('127.0.0.1/32,10.1.0.0/16,fd12::/16');
    expect(isAllowedAddress(list, '127.0.0.1')).toBe(true);
    expect(isAllowedAddress(list, '::ffff:127.0.0.1')).toBe(true);
    expect(isAllowedAddress(list, '127.0.0.2')).toBe(false);
    expect(isAllowedAddress(list, '10.1.255.3')).toBe(true);
    expect(isAllowedAddress(list, '10.2.0.1')).toBe(false);
    expect(isAllowedAddress(list, 'fd12:1::1')).toBe(true);
    expect(isAllowedAddress(list, 'fd13::1')).toBe(false);
    expect(isAllowedAddress(list, '::1')).toBe(false);
    expect(isAllowedAddress(parseAllowList('::ffff:0:0/96'), '192.168.0.1')).toBe(true);
  });
});

describe('HostGuard.check', () => {
  const names = table({
    localhost: ['127.0.0.1', '::1'],
    'loop.example': ['127.0.0.1'],
    'meta.example': ['169.254.169.254'],
    'mixed.example': ['10.0.0.5', '93.184.216.34'],
    'db.example': ['93.184.216.34'],
    'v6.example': ['2606:4700::1'],
    'db.internal': ['10.1.2.3'],
    '2130706433': ['127.0.0.1'],
    '0x7f000001': ['127.0.0.1'],
    '0177.0.0.1': ['127.0.0.1'],
    '127.1': ['127.0.0.1'],
  });

  it('refuses every non-public address, literal or resolved, without an allow list', async () => {
    const guard = new HostGuard('', names);
    for (const [host, reason] of [
      ['127.0.0.1', 'loopback'],
      ['localhost', 'loopback'],
      ['loop.example', 'loopback'],
      ['[::1]', 'loopback'],
      ['::1', 'loopback'],
      ['[::ffff:127.0.0.1]', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['[::]', 'unspecified'],
      ['2130706433', 'loopback'],
      ['0x7f000001', 'loopback'],
      ['0177.0.0.1', 'loopback'],
      ['127.1', 'loopback'],
      ['169.254.169.254', 'linkLocal'],
      ['meta.example', 'linkLocal'],
      ['[fd00:ec2::254]', 'private'],
      ['fe80::1%eth0', 'linkLocal'],
      ['10.0.0.1', 'private'],
      ['172.16.5.4', 'private'],
      ['192.168.0.10', 'private'],
      ['100.64.1.1', 'private'],
      ['db.internal', 'private'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['nowhere.example', 'unresolved'],
      ['', 'invalidHost'],
      ['a b', 'invalidHost'],
      ['user@host', 'invalidHost'],
    ] as const) {
      expect(await refusal(guard, host), host).toBe(reason);
    }
  });

  it('refuses a malformed port', async () => {
    const guard = new HostGuard('', names);
    for (const port of [0, -1, 65536, 1.5, Number.NaN]) expect(await refusal(guard, 'db.example', port)).toBe('invalidPort');
  });

  it('returns the checked address of a public host, and the first reachable one of several', async () => {
    const guard = new HostGuard('', names);
    expect(await guard.check('db.example', 5432)).toEqual({ host: 'db.example', address: '93.184.216.34', family: 4, port: 5432 });
    expect(await guard.check('[2606:4700::1]', 3306)).toEqual({ host: '2606:4700::1', address: '2606:4700::1', family: 6, port: 3306 });
    expect((await guard.check('v6.example', 3306)).family).toBe(6);
    // A name with a private and a public address is reached on the public one only.
    expect((await guard.check('mixed.example', 3306)).address).toBe('93.184.216.34');
    expect((await guard.check('8.8.8.8', 3306)).address).toBe('8.8.8.8');
  });

  it('lets through what the allow list names: blocks by address, names as written', async () => {
    const byBlock = new HostGuard('127.0.0.1/32', names);
    expect((await byBlock.check('127.0.0.1', 3306)).address).toBe('127.0.0.1');
    expect((await byBlock.check('localhost', 3306)).address).toBe('127.0.0.1');
    expect((await byBlock.check('2130706433', 3306)).address).toBe('127.0.0.1');
    // Only that block: ::1, the rest of 127/8 and the private network stay refused.
    expect(await refusal(byBlock, '::1')).toBe('loopback');
    expect(await refusal(byBlock, '127.0.0.2')).toBe('loopback');
    expect(await refusal(byBlock, '10.0.0.1')).toBe('private');
    expect(await refusal(byBlock, '169.254.169.254')).toBe('linkLocal');

    const byName = new HostGuard('db.internal', names);
    expect((await byName.check('DB.internal', 3306)).address).toBe('10.1.2.3');
    // The name, not its address: another name or the bare address stays refused.
    expect(await refusal(byName, '10.1.2.3')).toBe('private');
    expect(await refusal(byName, 'localhost')).toBe('loopback');

    const network = new HostGuard(['10.0.0.0/8', 'fd00::/8'], names);
    expect((await network.check('db.internal', 3306)).address).toBe('10.1.2.3');
    expect((await network.check('fd00:ec2::254', 3306)).address).toBe('fd00:ec2::254');
    expect(await refusal(network, '127.0.0.1')).toBe('loopback');
  });

  it('resolves with the system resolver (numeric shorthands mean loopback)', async () => {
    const guard = new HostGuard('');
    for (const host of ['localhost', '2130706433', '0x7f000001', '0177.0.0.1', '127.1', '017700000001']) {
      expect(await refusal(guard, host), host).toBe('loopback');
    }
    expect(await refusal(guard, '0')).toBe('unspecified');
  });
});
