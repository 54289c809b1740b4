import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

export interface TargetPolicy {
  allowLoopback: boolean;
  allowPrivate: boolean;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

// Private, link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254), shared, unspecified, multicast and reserved ranges.
const internal = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) internal.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) internal.addSubnet(net, prefix, 'ipv6');

/** Why an address may not be connected to, or undefined when it may. */
export function refusal(address: string, policy: TargetPolicy): string | undefined {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  // An IPv4-mapped IPv6 address is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return refusal(mapped[1]!, policy);
  if (loopback.check(address, family)) return policy.allowLoopback ? undefined : `${address} is a loopback address`;
  if (internal.check(address, family)) return policy.allowPrivate ? undefined : `${address} is a private, link-local or reserved address`;
  return undefined;
}

/** The lookup every connection uses: only vetted addresses are handed to the socket (no DNS-rebinding gap). */
function vettingLookup(policy: TargetPolicy) {
  return (hostname: string, lookupOptions: { all?: boolean }, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error !== null) return callback(error, '');
      const allowed = addresses.filter((a) => refusal(a.address, policy) === undefined);
      if (allowed.length === 0) return callback(new TargetRefused(`${hostname}: ${refusal(addresses[0]?.address ?? '', policy) ?? 'no address'}`), '');
      if (lookupOptions.all === true) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

// Keep-alive agents, one per scheme and policy: a socket is vetted when it connects and reused after.
const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, policy: TargetPolicy): http.Agent {
  const key = `${protocol}${policy.allowLoopback}${policy.allowPrivate}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    const options = { keepAlive: true, maxSockets: 64, lookup: vettingLookup(policy) as never };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

export class TargetRefused extends Error {
  readonly code = 'target_refused';
  readonly retryable = false;
}

export interface PostResult {
  status: number;
  retryAfterMs: number | undefined;
}

export interface PostOptions {
  policy: TargetPolicy;
  connectTimeoutMs: number;
  timeoutMs: number;
  maxResponseBytes: number;
}

/**
 * POSTs a JSON body. The address checked is the address connected to: the
 * lookup that vets it is the one the socket uses (no DNS-rebinding gap), and
 * an IP literal is vetted before any connection. Redirects are not followed
 * (3xx is an answer like any other). Connect and total timeouts; at most
 * `maxResponseBytes` of the answer are read.
 */
export function postJson(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new TargetRefused(`${target.protocol} is not http or https`));
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const why = refusal(host, options.policy);
    if (why !== undefined) return Promise.reject(new TargetRefused(why));
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve, reject) => {
    const request = client.request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Pulseboard-Notifications/1', ...headers },
      agent: agentFor(target.protocol, options.policy),
    });
    const total = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('socket', (socket) => {
      const connect = setTimeout(() => request.destroy(new Error(`no connection within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
      socket.once('connect', () => clearTimeout(connect));
      socket.once('secureConnect', () => clearTimeout(connect));
      socket.once('close', () => clearTimeout(connect));
    });
    request.on('error', (error) => {
      clearTimeout(total);
      reject(error);
    });
    request.on('response', (response) => {
      let read = 0;
      const finish = () => {
        clearTimeout(total);
        resolve({ status: response.statusCode ?? 0, retryAfterMs: retryAfter(response.headers['retry-after']) });
      };
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        // Enough of the answer: the status is what counts.
        if (read > options.maxResponseBytes) {
          response.destroy();
          finish();
        }
      });
      response.on('end', finish);
      response.on('error', finish);
    });
    request.end(body);
  });
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now. */
export function retryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
