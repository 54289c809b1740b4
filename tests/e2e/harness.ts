import { freePort, provisionProject, serviceTestEnv, spawnService, TEST_ADMIN_TOKEN, type ServiceProcess } from '@pulseboard/test-kit';

/**
 * A gateway as a real process on topics of its own, and the other services on
 * demand; `compiled`: every process runs its build (dist/), as production does.
 */
export async function startPipeline(extraEnv: Record<string, string> = {}, options: { compiled?: boolean } = {}) {
  const spawnOptions = { compiled: options.compiled === true };
  const port = await freePort();
  // No loopback target is allowed unless a test names its receiver's exact address and port
  // (NOTIFY_ALLOW_TARGETS in extraEnv, read by the gateway and the notification service).
  const env = serviceTestEnv({ GATEWAY_PORT: String(port), RULE_ENGINE_SESSION_TIMEOUT_MS: '6000', RULE_ENGINE_RULES_POLL_MS: '200', ...extraEnv });
  const gateway = await spawnService('gateway', env, spawnOptions);
  const processes: ServiceProcess[] = [gateway];
  const url = `http://127.0.0.1:${port}`;
  return {
    env,
    url,
    gateway,
    /** One more gateway on the same topics and database; its URL. */
    async startGateway(): Promise<string> {
      const port2 = await freePort();
      processes.push(await spawnService('gateway', { ...env, GATEWAY_PORT: String(port2) }, spawnOptions));
      return `http://127.0.0.1:${port2}`;
    },
    /** A broadcast process on this pipeline's topics; its base URL (http://, the socket is at /ws). */
    async startBroadcast(extra: Record<string, string> = {}): Promise<{ url: string; process: ServiceProcess }> {
      const port2 = extra.BROADCAST_PORT ?? String(await freePort());
      const broadcast = await spawnService(
        'broadcast',
        { ...env, BROADCAST_API_URL: `http://127.0.0.1:${port}`, ...extra, BROADCAST_PORT: port2 },
        spawnOptions,
      );
      processes.push(broadcast);
      return { url: `http://127.0.0.1:${port2}`, process: broadcast };
    },
    /** A notification process (the pipeline's NOTIFY_ALLOW_TARGETS: the tests' receivers); short retries unless set. */
    async startNotification(extra: Record<string, string> = {}): Promise<ServiceProcess> {
      const notification = await spawnService(
        'notification',
        {
          ...env,
          NOTIFICATION_HTTP_PORT: '0',
          NOTIFY_FIRST_RETRY_MS: '100',
          NOTIFY_MAX_BACKOFF_MS: '400',
          NOTIFY_POLL_MS: '50',
          NOTIFY_LEASE_MS: '2000',
          NOTIFICATION_SESSION_TIMEOUT_MS: '6000',
          ...extra,
        },
        spawnOptions,
      );
      processes.push(notification);
      return notification;
    },
    /** A rule engine process in the group of this pipeline (call twice for two instances). */
    async startRuleEngine(extra: Record<string, string> = {}): Promise<ServiceProcess> {
      const engine = await spawnService('rule-engine', { ...env, RULE_ENGINE_HTTP_PORT: '0', ...extra }, spawnOptions);
      processes.push(engine);
      return engine;
    },
    async startStore(extra: Record<string, string> = {}): Promise<ServiceProcess> {
      const store = await spawnService('store', { ...env, ...extra }, spawnOptions);
      processes.push(store);
      return store;
    },
    provision: (options: Parameters<typeof provisionProject>[2] = {}) => provisionProject(url, TEST_ADMIN_TOKEN, options),
    async stop() {
      await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    },
  };
}
