import { serviceTestEnv } from '@pulseboard/test-kit';
import { loadGatewayEnv } from '../src/env.ts';
import { startGateway, type GatewayOverrides, type GatewayService } from '../src/service.ts';

/** A gateway in this process on a free port and its own topics, against the real infrastructure. */
export async function startTestGateway(
  env: Record<string, string> = {},
  overrides: GatewayOverrides = {},
): Promise<GatewayService & { env: Record<string, string> }> {
  const raw = serviceTestEnv(env);
  const service = await startGateway(loadGatewayEnv(raw), overrides);
  return Object.assign(service, { env: raw });
}
