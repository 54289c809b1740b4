import type { FastifyInstance } from 'fastify';
import { INTEGRATION_SCHEMAS } from '@pulseboard/contracts';
import type { Authenticator } from '../../auth/authenticator.ts';
import { registerAlertmanagerRoute } from './alertmanager-route.ts';
import { registerCloudEventsRoute } from './cloudevents-route.ts';
import { registerGitHubRoute } from './github-route.ts';
import type { GitHubSenders } from './github-senders.ts';
import { registerPagerDutyRoute } from './pagerduty-route.ts';
import type { MappedIntakeDeps } from './send-mapped.ts';

export interface IntegrationRouteDeps extends MappedIntakeDeps {
  auth: Pick<Authenticator, 'sender'>;
  senders: GitHubSenders;
  now: () => number;
  /** BODY_MAX_JSON_VALUES, for the CloudEvents media types' parser. */
  maxBodyValues: number;
}

/**
 * /api/v1/integrations/*: the tools users already run, accepted as they send
 * (docs/integrations/). Each route reads its tool's payload, maps it with the
 * tool's mapping from packages/contracts, and sends the events down the
 * webhooks' path (sendMapped).
 */
export function registerIntegrationRoutes(app: FastifyInstance, deps: IntegrationRouteDeps): void {
  for (const schema of INTEGRATION_SCHEMAS) app.addSchema(schema);
  registerAlertmanagerRoute(app, deps);
  registerPagerDutyRoute(app, deps);
  registerCloudEventsRoute(app, deps);
  registerGitHubRoute(app, deps);
}
