import { describe, expect, it } from 'vitest';
import { clusterNodes } from './redis-client.ts';
import { generateSecret } from '@pulseboard/config';
import { loadGatewayEnv } from './env.ts';

describe('REDIS_CLUSTER_NODES', () => {
  it('reads comma-separated host:port seed nodes, IPv6 in brackets, and nothing from an empty value', () => {
    expect(clusterNodes('')).toEqual([]);
    expect(clusterNodes(' redis-0.redis:6379, 10.0.0.2:7001 ,[::1]:7002')).toEqual([
      { host: 'redis-0.redis', port: 6379 },
      { host: '10.0.0.2', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
  });

  it('refuses an entry without a port, naming it', () => {
    expect(() => clusterNodes('redis-0:6379,redis-1')).toThrow('REDIS_CLUSTER_NODES: "redis-1" is not host:port');
  });

  it('is checked with the rest of the environment at start-up, every problem reported at once', () => {
    expect(() => loadGatewayEnv({ REDIS_CLUSTER_NODES: 'redis-0:6379,redis-1', GATEWAY_PORT: 'eighty' })).toThrow(
      /REDIS_CLUSTER_NODES[\s\S]*GATEWAY_PORT|GATEWAY_PORT[\s\S]*REDIS_CLUSTER_NODES/,
    );
    expect(
      loadGatewayEnv({ REDIS_CLUSTER_NODES: 'redis-0:6379, [::1]:7002', SECRETS_KEY: generateSecret(), ADMIN_TOKEN: generateSecret() }).REDIS_CLUSTER_NODES,
    ).toBe('redis-0:6379, [::1]:7002');
  });
});
