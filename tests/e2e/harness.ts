import { freePort, provisionProject, serviceTestEnv, spawnService, TEST_ADMIN_TOKEN, type ServiceProcess } from '@pulseboard/test-kit';

/** Gateway and store as real processes on topics of their own. */
export async function startPipeline(extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const env = serviceTestEnv({ GATEWAY_PORT: String(port), ...extraEnv });
  const gateway = await spawnService('gateway', env);
  const processes: ServiceProcess[] = [gateway];
  const url = `http://127.0.0.1:${port}`;
  return {
    env,
    url,
    gateway,
    async startStore(): Promise<ServiceProcess> {
      const store = await spawnService('store', env);
      processes.push(store);
      return store;
    },
    provision: (options: Parameters<typeof provisionProject>[2] = {}) => provisionProject(url, TEST_ADMIN_TOKEN, options),
    async stop() {
      await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    },
  };
}
