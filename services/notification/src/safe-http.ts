import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { addressAllowed, literalHost, TARGET_REFUSED_REASON, urlPort, type TargetPolicy } from '@pulseboard/contracts';

export type { TargetPolicy };

/**
 * Only global unicast addresses pass (every IPv6 form that embeds IPv4 judged
 * as that IPv4: packages/contracts/src/outbound-address.ts); private ones
 * only as the operator allows, loopback ones only as an exact allowed target
 * (`port`: the one the URL's own IP literal names; never through a name).
 */
export function refused(address: string, policy: TargetPolicy, port?: number): boolean {
  return !addressAllowed(address, policy, port);
}

/** The lookup every connection uses: only vetted addresses are handed to the socket (no DNS-rebinding gap). */
function vettingLookup(policy: TargetPolicy) {
  return (hostname: string, lookupOptions: { all?: boolean }, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error !== null) return callback(error, '');
      const allowed = addresses.filter((a) => !refused(a.address, policy));
      if (allowed.length === 0)
        return callback(new TargetRefused(TARGET_REFUSED_REASON, `${hostname} resolves to ${addresses.map((a) => a.address).join(', ')}`), '');
      if (lookupOptions.all === true) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

// Keep-alive agents, one per scheme and policy: a socket is vetted when it connects and reused after.
const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, policy: TargetPolicy): http.Agent {
  const key = `${protocol}${policy.allowPrivate}${[...(policy.allowTargets ?? [])].join()}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    const options = { keepAlive: true, maxSockets: 64, lookup: vettingLookup(policy) as never };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** A target the policy refuses. The message is generic (it is what a tenant sees); `detail` (the address) is for the operator's log only. */
export class TargetRefused extends Error {
  readonly code = 'target_refused';
  readonly retryable = false;
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

/** A timeout of ours; its message names no address. */
export class DeliveryTimeout extends Error {}

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
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return Promise.reject(new TargetRefused('the target is not an http or https URL', target.protocol));
  // Refused at creation; a target stored before that check never has its user name and password sent (Authorization: Basic).
  if (target.username !== '' || target.password !== '')
    return Promise.reject(new TargetRefused('the target URL holds a user name or password', 'userinfo in the URL'));
  const host = literalHost(target);
  if (host !== undefined && refused(host, options.policy, urlPort(target))) return Promise.reject(new TargetRefused(TARGET_REFUSED_REASON, host));
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve, reject) => {
    const request = client.request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Pulseboard-Notifications/1', ...headers },
      agent: agentFor(target.protocol, options.policy),
    });
    const total = setTimeout(() => request.destroy(new DeliveryTimeout(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('socket', (socket) => {
      // A kept-alive socket is connected already: it gets no connect timer (one per request would
      // wait out connectTimeoutMs on every delivery, and its listeners pile up on the socket).
      if (!socket.connecting) return;
      const connect = setTimeout(() => request.destroy(new DeliveryTimeout(`no connection within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
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
