import { isIP } from 'node:net';
import { timingSafeEqual, createHash } from 'node:crypto';

/**
 * Client addresses behind proxies (SECURITY.md, Trusted proxies). The gateway
 * and broadcast count per client address (failed authentications, limits), so
 * the address must be the browser's or collector's, not an ingress's, and no
 * client may choose its own. Two ways a proxy is trusted:
 * - TRUST_PROXY names the proxies in front of a service (an ingress controller):
 *   fastify's `trustProxy`, X-Forwarded-For read only from those peers.
 * - broadcast's pass-through proves itself to the gateway with
 *   INTERNAL_PROXY_SECRET (a header compared in constant time) and names the
 *   browser's address in another header; without the secret both headers are ignored.
 */
export const proxyEnvProperties = {
  TRUST_PROXY: {
    type: 'string',
    default: '',
    pattern: '^\\s*$|^\\s*\\d{1,2}\\s*$|^\\s*[0-9A-Fa-f:.]+(/\\d{1,3})?\\s*(,\\s*[0-9A-Fa-f:.]+(/\\d{1,3})?\\s*)*$',
    description:
      "Proxies whose X-Forwarded-For is believed: comma-separated addresses and CIDR ranges (e.g. the ingress controller's pods), or a hop count. Empty: none, the TCP peer is the client (SECURITY.md, Trusted proxies).",
  },
  INTERNAL_PROXY_SECRET: {
    type: 'string',
    default: '',
    strongSecret: 'or-empty',
    description:
      "Held by broadcast and the gateway only: broadcast's pass-through sends it so the gateway counts the dashboard's requests per browser address, not broadcast's. 32+ random bytes; empty: the pass-through is not trusted.",
  },
} as const;

/** The header carrying INTERNAL_PROXY_SECRET from broadcast's pass-through. */
export const PROXY_SECRET_HEADER = 'x-pulseboard-proxy-secret';
/** The header in which the pass-through names the browser's address (believed only with the secret). */
export const PROXY_CLIENT_HEADER = 'x-pulseboard-client';

/**
 * TRUST_PROXY as fastify's `trustProxy`: false (trust nothing), a hop count,
 * or the list of addresses and ranges. Throws on an entry that is not an
 * address or CIDR range, so a typo never widens trust silently.
 */
export function trustProxyOption(value: string): false | string[] | ((address: string, hop: number) => boolean) {
  const text = value.trim();
  if (text === '') return false;
  if (/^\d+$/.test(text)) {
    // A hop count as fastify (proxy-addr) reads a number: the nearest `hops` proxies are trusted.
    const hops = Number(text);
    return (_address, hop) => hop < hops;
  }
  return text.split(',').map((entry) => {
    const item = entry.trim();
    const [address = '', bits, extra] = item.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    if (family === 0 || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))) {
      throw new Error(`TRUST_PROXY: "${item}" is not an address or CIDR range`);
    }
    return item;
  });
}

/**
 * The client address the pass-through names, when the request carries the
 * internal secret (compared as hashes, in constant time); otherwise undefined
 * and the caller uses the connection's own (fastify's `request.ip`).
 */
export function passThroughClient(secretHash: Buffer | undefined, headers: Record<string, string | string[] | undefined>): string | undefined {
  if (secretHash === undefined) return undefined;
  const presented = headers[PROXY_SECRET_HEADER];
  const client = headers[PROXY_CLIENT_HEADER];
  if (typeof presented !== 'string' || typeof client !== 'string' || isIP(client) === 0) return undefined;
  const hash = createHash('sha256').update(presented, 'utf8').digest();
  return timingSafeEqual(hash, secretHash) ? client : undefined;
}

/** What `passThroughClient` compares against: undefined when no secret is set (the pass-through not trusted). */
export function proxySecretHash(secret: string): Buffer | undefined {
  return secret === '' ? undefined : createHash('sha256').update(secret, 'utf8').digest();
}
