import { describe, expect, it } from 'vitest';
import { addressAllowed, classifyAddress, parseAllowedTargets, targetUrlProblem, type AddressClass } from './outbound-address.ts';

const strict = { allowPrivate: false };

/** Every form, and the class it must be judged as. */
const table: [string, AddressClass, string][] = [
  // IPv4
  ['93.184.216.34', 'global', 'public IPv4'],
  ['1.1.1.1', 'global', 'public IPv4'],
  ['127.0.0.1', 'loopback', 'loopback'],
  ['127.255.255.254', 'loopback', 'loopback /8'],
  ['10.0.0.5', 'private', 'RFC 1918'],
  ['172.16.3.4', 'private', 'RFC 1918'],
  ['192.168.1.1', 'private', 'RFC 1918'],
  ['100.64.0.1', 'private', 'shared address space (CGNAT)'],
  ['169.254.169.254', 'other', 'link-local (cloud metadata)'],
  ['0.0.0.0', 'other', 'unspecified'],
  ['0.1.2.3', 'other', 'this network'],
  ['224.0.0.1', 'other', 'multicast'],
  ['255.255.255.255', 'other', 'broadcast'],
  ['240.0.0.1', 'other', 'reserved'],
  ['192.0.0.8', 'other', 'IETF protocol assignments'],
  ['192.0.2.1', 'other', 'documentation TEST-NET-1'],
  ['198.51.100.1', 'other', 'documentation TEST-NET-2'],
  ['203.0.113.1', 'other', 'documentation TEST-NET-3'],
  ['198.18.0.1', 'other', 'benchmarking'],
  ['192.88.99.1', 'other', '6to4 relay anycast'],
  // IPv6, native
  ['2606:4700:4700::1111', 'global', 'public IPv6'],
  ['[2a00:1450:4001:82a::200e]', 'global', 'public IPv6 in brackets'],
  ['::1', 'loopback', 'IPv6 loopback'],
  ['[::1]', 'loopback', 'IPv6 loopback in brackets'],
  ['::', 'other', 'IPv6 unspecified'],
  ['fd00::1', 'private', 'unique local (ULA)'],
  ['fc00::1', 'private', 'unique local (ULA)'],
  ['fd00:ec2::254', 'private', 'AWS metadata over IPv6 (ULA)'],
  ['fe80::1', 'other', 'link-local'],
  ['fe80::1%eth0', 'other', 'link-local with a zone'],
  ['fec0::1', 'other', 'site-local (deprecated)'],
  ['ff02::1', 'other', 'multicast'],
  ['2001:db8::1', 'other', 'documentation'],
  ['3fff::1', 'other', 'documentation (RFC 9637)'],
  ['100::1', 'other', 'discard-only'],
  ['2001:2::1', 'other', 'benchmarking'],
  ['2001:10::1', 'other', 'ORCHID'],
  ['64:ff9b:1::a00:1', 'other', 'local-use NAT64 (RFC 8215)'],
  ['4000::1', 'other', 'outside 2000::/3 (unallocated)'],
  ['5f00::1', 'other', 'segment routing'],
  // IPv6 forms that embed IPv4: judged as the IPv4 address
  ['::7f00:1', 'loopback', 'IPv4-compatible 127.0.0.1 (hex)'],
  ['::127.0.0.1', 'loopback', 'IPv4-compatible 127.0.0.1 (dotted)'],
  ['::a00:1', 'private', 'IPv4-compatible 10.0.0.1'],
  ['::169.254.169.254', 'other', 'IPv4-compatible metadata'],
  ['::5db8:d822', 'global', 'IPv4-compatible 93.184.216.34'],
  ['::ffff:127.0.0.1', 'loopback', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'loopback', 'IPv4-mapped loopback (hex)'],
  ['::ffff:10.0.0.1', 'private', 'IPv4-mapped RFC 1918'],
  ['::ffff:169.254.169.254', 'other', 'IPv4-mapped metadata'],
  ['::ffff:93.184.216.34', 'global', 'IPv4-mapped public'],
  ['::ffff:0:127.0.0.1', 'loopback', 'IPv4-translated (RFC 6145) loopback'],
  ['::ffff:0:8.8.8.8', 'global', 'IPv4-translated public'],
  ['64:ff9b::127.0.0.1', 'loopback', 'NAT64 loopback'],
  ['64:ff9b::a9fe:a9fe', 'other', 'NAT64 metadata'],
  ['64:ff9b::808:808', 'global', 'NAT64 public'],
  ['2002:7f00:1::', 'loopback', '6to4 of 127.0.0.1'],
  ['2002:a00:1::1', 'private', '6to4 of 10.0.0.1'],
  ['2002:a9fe:a9fe::', 'other', '6to4 of metadata'],
  ['2002:5db8:d822::1', 'global', '6to4 of a public address'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', 'Teredo, client 127.0.0.1 (inverted)'],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private', 'Teredo, client 10.0.0.1 (inverted)'],
  ['2001:0:a00:1:8000:63bf:a247:29cb', 'private', 'Teredo, server 10.0.0.1'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'other', 'Teredo, client 192.0.2.45 (documentation; the RFC 4380 example)'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'global', 'Teredo, public server and client 8.8.8.8'],
  // Not an address at all
  ['example.com', 'other', 'a name'],
  ['', 'other', 'empty'],
];

describe('outbound guard: every address form', () => {
  it.each(table)('%s is %s (%s)', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each(table)('%s: refused unless global, private only when allowed, loopback only as an exact allowed target', (address, kind) => {
    expect(addressAllowed(address, strict)).toBe(kind === 'global');
    expect(addressAllowed(address, { allowPrivate: true })).toBe(kind === 'global' || kind === 'private');
    // Whatever the exact list holds, an address judged without a port (one a name resolved to) is not in it.
    const listed = { allowPrivate: false, allowTargets: parseAllowedTargets('127.0.0.1:4567,[::1]:4567') };
    expect(addressAllowed(address, listed)).toBe(kind === 'global');
  });
});

describe('target URLs at creation', () => {
  it.each([
    ['http://127.0.0.1:8080/hook', 'not global unicast'],
    ['http://[::1]/hook', 'not global unicast'],
    ['http://[::7f00:1]/hook', 'not global unicast'],
    ['http://[::ffff:127.0.0.1]/', 'not global unicast'],
    ['http://[2002:7f00:1::]/', 'not global unicast'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'not global unicast'],
    ['http://169.254.169.254/latest/meta-data', 'not global unicast'],
    ['http://2130706433/', 'not global unicast'],
    ['http://0x7f.1/', 'not global unicast'],
    ['http://017700000001/', 'not global unicast'],
    ['http://10.1.2.3/hook', 'not global unicast'],
    ['http://[fd00::1]/hook', 'not global unicast'],
    ['http://localhost:9000/', 'localhost'],
    ['http://api.localhost/', 'localhost'],
    ['ftp://example.com/', 'http or https'],
    ['not a url', 'a URL'],
  ])('refuses %s', (url, why) => {
    expect(targetUrlProblem(url, strict)).toContain(why);
  });

  it('accepts names (checked at each connection) and global literals; private only as allowed', () => {
    for (const url of [
      'https://hooks.slack.com/services/T/B/X',
      'https://93.184.216.34/hook',
      'https://[2606:4700:4700::1111]/hook',
      'http://internal.example/',
    ])
      expect(targetUrlProblem(url, strict), url).toBeUndefined();
    expect(targetUrlProblem('http://10.0.0.1/', strict)).toBeDefined();
    expect(targetUrlProblem('http://10.0.0.1/', { allowPrivate: true })).toBeUndefined();
    expect(targetUrlProblem('http://169.254.169.254/', { allowPrivate: true })).toBeDefined();
  });

  it('refuses a user name or password in the URL (it would become an Authorization header)', () => {
    for (const url of [
      'https://user:pass@hooks.example.com/x',
      'https://user@hooks.example.com/x',
      'https://:pass@hooks.example.com/x',
      'http://a%40b:c@93.184.216.34/',
    ]) {
      expect(targetUrlProblem(url, strict), url).toBe('must not contain a user name or password (put a token in the path or query, or use the webhook secret)');
    }
  });

  it('an exact allowed target (NOTIFY_ALLOW_TARGETS) opens that address and port only: every other port, loopback form and localhost stays refused', () => {
    const policy = { allowPrivate: false, allowTargets: parseAllowedTargets('127.0.0.1:4567, [::1]:4568') };
    expect(targetUrlProblem('http://127.0.0.1:4567/hook', policy)).toBeUndefined();
    expect(targetUrlProblem('http://[::1]:4568/hook', policy)).toBeUndefined();
    expect(targetUrlProblem('http://[0:0:0:0:0:0:0:1]:4568/hook', policy)).toBeUndefined();
    for (const url of [
      'http://127.0.0.1:4568/',
      'http://127.0.0.1/',
      'https://127.0.0.1:4568/',
      'http://127.0.0.5:4567/',
      'http://127.1.2.3:4567/',
      'http://[::ffff:127.0.0.5]:4567/',
      'http://[::ffff:127.0.0.1]:4567/',
      'http://2130706434:4567/',
      'http://0177.0.0.2:4567/',
      'http://0x7f000002:4567/',
      'http://[::1]:4567/',
      'http://localhost:4567/',
      'http://localhost:4568/',
      'http://anything.localhost:4567/',
      'http://10.0.0.1:4567/',
    ]) {
      expect(targetUrlProblem(url, policy), url).toBeDefined();
    }
  });

  it('parses NOTIFY_ALLOW_TARGETS strictly: IP literals with a port, never a name, a range or a link-local address', () => {
    expect([...parseAllowedTargets('')]).toEqual([]);
    expect([...parseAllowedTargets('127.0.0.1:4567,[::1]:80,10.1.2.3:8080')]).toEqual(['127.0.0.1:4567', '[0:0:0:0:0:0:0:1]:80', '10.1.2.3:8080']);
    for (const bad of [
      'localhost:4567',
      '127.0.0.1',
      '127.0.0.0/8:4567',
      '127.0.0.1:0',
      '127.0.0.1:70000',
      '::1:4567',
      '0177.0.0.1:4567',
      '2130706433:4567',
      '169.254.169.254:80',
      '[fe80::1]:80',
      '*:4567',
    ]) {
      expect(() => parseAllowedTargets(bad), bad).toThrow(/NOTIFY_ALLOW_TARGETS/);
    }
  });
});
