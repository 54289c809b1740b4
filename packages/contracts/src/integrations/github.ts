import type { WebhookEvent } from '../webhook-request.schema.ts';
import { isObject, recentOrReceived, type MappingContext, type MappingResult } from './mapping.ts';

export interface GitHubDelivery {
  /** `X-GitHub-Event`. */
  event: string | undefined;
  /** `X-GitHub-Delivery`, GitHub's id of this delivery (kept in the attributes). */
  delivery: string | undefined;
  body: unknown;
}

type DeployName = 'deploy_started' | 'deploy_finished' | 'deploy_failed';

/** deployment_status `state` to the deployment event it reports; `inactive` (a newer deployment superseded it) is no news. */
const DEPLOYMENT_STATES: Record<string, DeployName> = {
  pending: 'deploy_started',
  queued: 'deploy_started',
  in_progress: 'deploy_started',
  success: 'deploy_finished',
  failure: 'deploy_failed',
  error: 'deploy_failed',
};

/** workflow_run `conclusion` (action `completed`) to the deployment event; `stale` (GitHub gave up on it) is ignored. */
const WORKFLOW_CONCLUSIONS: Record<string, DeployName> = {
  success: 'deploy_finished',
  neutral: 'deploy_finished',
  skipped: 'deploy_finished',
  failure: 'deploy_failed',
  timed_out: 'deploy_failed',
  startup_failure: 'deploy_failed',
  cancelled: 'deploy_failed',
  action_required: 'deploy_failed',
};

const SEVERITY: Record<DeployName, NonNullable<WebhookEvent['severity']>> = { deploy_started: 'info', deploy_finished: 'info', deploy_failed: 'error' };

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function login(user: unknown): string | undefined {
  return isObject(user) ? text(user.login) : text(user);
}

/** Attributes without the fields GitHub left empty. */
function defined(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined && v !== null));
}

function deploymentStatus(body: Record<string, unknown>, delivery: string | undefined, context: MappingContext): MappingResult {
  const status = body.deployment_status;
  const deployment = body.deployment;
  if (!isObject(status) || !isObject(deployment))
    return { kind: 'invalid', details: { [isObject(status) ? 'deployment' : 'deployment_status']: ['must be an object'] } };
  const state = text(status.state);
  const name = state === undefined ? undefined : DEPLOYMENT_STATES[state];
  if (name === undefined) return { kind: 'ignored', reason: `deployment_status state ${state ?? '(none)'} is not followed` };
  const repository = isObject(body.repository) ? text(body.repository.full_name) : undefined;
  const environment = text(status.environment) ?? text(deployment.environment);
  const attributes = defined({
    environment,
    commit_sha: text(deployment.sha),
    deployed_by: login(status.creator) ?? login(deployment.creator) ?? login(body.sender),
    url: text(status.environment_url) ?? text(status.target_url) ?? text(status.log_url),
    version: text(deployment.ref),
    state,
    description: text(status.description),
    repository,
    deployment_id: deployment.id,
    github_event: 'deployment_status',
    github_delivery: delivery,
  });
  return {
    kind: 'events',
    events: [
      {
        type: 'deployment',
        name,
        timestamp: recentOrReceived(status.updated_at ?? status.created_at, context),
        severity: SEVERITY[name],
        source: 'github',
        ...(typeof deployment.id === 'number' || typeof deployment.id === 'string' ? { correlation_id: `github-deployment-${deployment.id}` } : {}),
        ...(environment === undefined ? {} : { channel: environment }),
        attributes,
      },
    ],
  };
}

function workflowRun(body: Record<string, unknown>, delivery: string | undefined, context: MappingContext): MappingResult {
  const run = body.workflow_run;
  if (!isObject(run)) return { kind: 'invalid', details: { workflow_run: ['must be an object'] } };
  const action = text(body.action);
  const conclusion = text(run.conclusion);
  let name: DeployName | undefined;
  if (action === 'requested' || action === 'in_progress') name = 'deploy_started';
  else if (action === 'completed') name = conclusion === undefined ? undefined : WORKFLOW_CONCLUSIONS[conclusion];
  if (name === undefined)
    return { kind: 'ignored', reason: `workflow_run ${action ?? '(no action)'}${conclusion === undefined ? '' : ` ${conclusion}`} is not followed` };
  const attributes = defined({
    workflow: text(run.name) ?? (isObject(body.workflow) ? text(body.workflow.name) : undefined),
    commit_sha: text(run.head_sha),
    deployed_by: login(run.triggering_actor) ?? login(run.actor) ?? login(body.sender),
    url: text(run.html_url),
    version: text(run.head_branch),
    status: text(run.status),
    conclusion,
    run_number: run.run_number,
    run_attempt: run.run_attempt,
    repository: isObject(body.repository) ? text(body.repository.full_name) : undefined,
    github_event: 'workflow_run',
    github_delivery: delivery,
  });
  return {
    kind: 'events',
    events: [
      {
        type: 'deployment',
        name,
        timestamp: recentOrReceived(run.updated_at ?? run.run_started_at, context),
        severity: SEVERITY[name],
        source: 'github',
        ...(typeof run.id === 'number' || typeof run.id === 'string' ? { correlation_id: `github-workflow-run-${run.id}` } : {}),
        attributes,
      },
    ],
  };
}

/**
 * GitHub webhooks: `deployment_status` and `workflow_run` become `deployment`
 * events (deploy_started, deploy_finished, deploy_failed) with the spec's
 * deployment attributes (environment, commit_sha, deployed_by, version) and
 * the url to follow; every other event (ping included, which the gateway
 * answers itself) is ignored. The signature is the gateway's business: this
 * only reads a payload already verified.
 */
export function mapGitHub(delivery: GitHubDelivery, context: MappingContext): MappingResult {
  if (delivery.event === undefined || delivery.event === '') return { kind: 'invalid', details: { 'x-github-event': ["can't be blank"] } };
  if (delivery.event !== 'deployment_status' && delivery.event !== 'workflow_run')
    return { kind: 'ignored', reason: `GitHub event ${delivery.event} is not followed` };
  if (!isObject(delivery.body)) return { kind: 'invalid', details: { base: ['must be a GitHub webhook payload (an object)'] } };
  return delivery.event === 'deployment_status'
    ? deploymentStatus(delivery.body, delivery.delivery, context)
    : workflowRun(delivery.body, delivery.delivery, context);
}
