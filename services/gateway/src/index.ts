export { startGateway, type GatewayService } from './service.ts';
export { loadGatewayEnv, type GatewayEnv } from './env.ts';
