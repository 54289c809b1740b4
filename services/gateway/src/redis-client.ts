import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** A single Redis or a Redis Cluster: every key the gateway touches alone, or with the `{pbrl}` hash tag. */
export type RedisClient = Redis | Cluster;

export interface RedisConnectionEnv {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES: string;
}

/** `host:port` entries of REDIS_CLUSTER_NODES (comma-separated); empty when not a cluster. */
export function clusterNodes(list: string): { host: string; port: number }[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(entry);
      if (match === null) throw new Error(`REDIS_CLUSTER_NODES: "${entry}" is not host:port`);
      return { host: match[1]!, port: Number(match[2]) };
    });
}

/**
 * The gateway's Redis: REDIS_URL, or a Redis Cluster when REDIS_CLUSTER_NODES
 * names its seed nodes (credentials, if any, come from REDIS_URL). Commands time
 * out, so a Redis that stops answering fails requests (503) instead of hanging them.
 */
export function createRedisClient(env: RedisConnectionEnv): RedisClient {
  const options: RedisOptions = {
    // No auto-pipelining: the limiter already sends one command for a whole micro-batch of
    // requests, and ioredis' extra pipeline per tick only delayed it (fewer /ingest requests a
    // second with it on).
    enableAutoPipelining: false,
    maxRetriesPerRequest: 2,
    connectTimeout: 3000,
    commandTimeout: 2000,
  };
  const nodes = clusterNodes(env.REDIS_CLUSTER_NODES);
  if (nodes.length === 0) return new Redis(env.REDIS_URL, options);
  const url = new URL(env.REDIS_URL);
  const credentials = {
    ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
  };
  return new Cluster(nodes, { enableAutoPipelining: false, redisOptions: { ...options, ...credentials } });
}
