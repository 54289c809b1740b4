import ipaddr from 'ipaddr.js';

/** Which outbound targets an operator allows besides global unicast addresses (development, internal receivers). */
export interface TargetPolicy {
  /** RFC 1918, shared (100.64/10) and unique-local (fc00::/7) addresses; never link-local, multicast or reserved ones. */
  allowPrivate: boolean;
  /**
   * Exact `address:port` targets allowed although loopback or private (a test's local receiver),
   * as `parseAllowedTargets` makes them: IP literals only, so a name (`localhost`) never matches,
   * and only a URL that names that address and port (default ports included) does. Never a range.
   */
  allowTargets?: ReadonlySet<string>;
}

/**
 * NOTIFY_ALLOW_TARGETS (`127.0.0.1:4567,[::1]:4568`) as a set of canonical
 * `address:port` entries (`[v6]:port` for IPv6). An entry that is not a
 * dotted-quad IPv4 or bracketed IPv6 literal with a port, or one of a
 * link-local, multicast or reserved address, throws: a setting that cannot
 * mean what it says stops the service at start.
 */
export function parseAllowedTargets(text: string): ReadonlySet<string> {
  const targets = new Set<string>();
  for (const raw of text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const match = /^(?:(\d{1,3}(?:\.\d{1,3}){3})|\[([0-9A-Fa-f:.]+)\]):(\d{1,5})$/.exec(raw);
    const address = match?.[1] ?? match?.[2];
    const port = Number(match?.[3]);
    if (
      address === undefined ||
      !ipaddr.isValid(address) ||
      (match?.[1] !== undefined && !ipaddr.IPv4.isValidFourPartDecimal(address)) ||
      !(port >= 1 && port <= 65535)
    ) {
      throw new Error(
        `NOTIFY_ALLOW_TARGETS: "${raw}" is not an exact target (an IPv4 address or a bracketed IPv6 address, and a port: 127.0.0.1:4567, [::1]:4567)`,
      );
    }
    if (classifyAddress(address) === 'other')
      throw new Error(`NOTIFY_ALLOW_TARGETS: "${raw}" is link-local, multicast or reserved: never a notification target`);
    targets.add(targetKey(address, port));
  }
  return targets;
}

/** The canonical `address:port` of an IP literal (brackets allowed) and a port. */
function targetKey(address: string, port: number): string {
  const parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  return parsed.kind() === 'ipv6' ? `[${parsed.toNormalizedString()}]:${port}` : `${parsed.toString()}:${port}`;
}

export type AddressClass = 'global' | 'loopback' | 'private' | 'other';

/**
 * What a delivery records when it could not connect or got no answer on the connection: the same words for a
 * closed port, one that closes the connection, one that speaks another protocol, an unreachable host.
 */
export const COULD_NOT_CONNECT = 'could not connect to the target, or it closed the connection before an answer';

/** What a delivery records and the API says when a target is refused: the same words whatever the address was. */
export const TARGET_REFUSED_REASON = 'the target is not a global unicast address (loopback, private, link-local, reserved and the like are refused)';

type V4 = ipaddr.IPv4;
type V6 = ipaddr.IPv6;

const v4 = (hi: number, lo: number): V4 => ipaddr.fromByteArray([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]) as V4;
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [V6, number];

/**
 * Every IPv4 address an IPv6 address carries, decoded, for each form that
 * embeds one: IPv4-compatible (::/96), IPv4-mapped (::ffff:0:0/96),
 * IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16,
 * the gateway's address) and Teredo (2001::/32: the server's address and the
 * client's, stored inverted). Undefined for an address that embeds none.
 */
export function embeddedIPv4(address: V6): V4[] | undefined {
  const p = address.parts;
  const last = () => v4(p[6]!, p[7]!);
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && ((p[4] === 0 && (p[5] === 0 || p[5] === 0xffff)) || (p[4] === 0xffff && p[5] === 0)))
    return [last()];
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return [last()];
  if (p[0] === 0x2002) return [v4(p[1]!, p[2]!)];
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2]!, p[3]!), v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
  return undefined;
}

const PRIVATE_V4 = new Set(['private', 'carrierGradeNat']);

function classifyV4(address: V4): AddressClass {
  const range = address.range();
  if (range === 'unicast') return 'global';
  if (range === 'loopback') return 'loopback';
  return PRIVATE_V4.has(range) ? 'private' : 'other';
}

const RANK: Record<AddressClass, number> = { global: 0, loopback: 1, private: 2, other: 3 };

/** The class of an IP address (text, IPv4 or IPv6, brackets allowed); anything that is not an address is `other`. */
export function classifyAddress(text: string): AddressClass {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return 'other';
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return classifyV4(parsed as V4);
  const address = parsed as V6;
  if (address.range() === 'loopback') return 'loopback';
  if (address.range() === 'unspecified') return 'other';
  const embedded = embeddedIPv4(address);
  // An address that carries IPv4 is judged as the IPv4 it carries (the worst, for Teredo's two).
  if (embedded !== undefined) return embedded.map(classifyV4).reduce((worst, c) => (RANK[c] > RANK[worst] ? c : worst), 'global' as AddressClass);
  const range = address.range();
  if (range === 'uniqueLocal') return 'private';
  // ipaddr.js calls `unicast` whatever no special range claims; global unicast is only 2000::/3 of that.
  return range === 'unicast' && address.match(GLOBAL_UNICAST_V6) ? 'global' : 'other';
}

/**
 * Whether an address may be connected to under `policy`. `port`: when the
 * address is an IP literal of the target URL itself, the port it names, so
 * that an exact allowed target matches; an address a name resolved to is
 * judged without one (no exact target is ever reached through a name).
 */
export function addressAllowed(text: string, policy: TargetPolicy, port?: number): boolean {
  const kind = classifyAddress(text);
  if (kind === 'global' || (kind === 'private' && policy.allowPrivate)) return true;
  if (kind === 'other' || port === undefined || policy.allowTargets === undefined || policy.allowTargets.size === 0) return false;
  return policy.allowTargets.has(targetKey(text, port));
}

/** The port a URL connects to (its own, or its scheme's). */
export function urlPort(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** A URL's host when it is an IP literal (brackets stripped), else undefined. WHATWG URL has already turned `0x7f.1` and `2130706433` into dotted IPv4. */
export function literalHost(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) && (host.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(host)) ? host : undefined;
}

/**
 * Checks a target URL as far as it can be checked without DNS: http(s) only,
 * no user name or password (it would become an Authorization header the
 * tenant chose, sent to whatever the name resolves to), an IP literal allowed
 * by `policy` (loopback only as an exact allowed target), never `localhost`.
 * Names are checked on the address they resolve to, at every connection.
 */
export function targetUrlProblem(value: string, policy: TargetPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '')
    return 'must not contain a user name or password (put a token in the path or query, or use the webhook secret)';
  const host = literalHost(url);
  if (host !== undefined)
    return addressAllowed(host, policy, urlPort(url))
      ? undefined
      : `must not point to an address that is not global unicast (loopback, private, link-local, reserved and the like)`;
  const name = url.hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return 'must not point to localhost';
  return undefined;
}
