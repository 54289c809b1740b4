import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { mapGitHub } from './github.ts';
import { envelopeProblems } from './envelope-check.test-helper.ts';

// GitHub's example payloads as @octokit/webhooks-examples publishes them (api.github.com).
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as { name: string; examples: Record<string, unknown>[] }[];
const examplesOf = (name: string) => examples.find((e) => e.name === name)!.examples;

const receivedAt = new Date('2022-01-03T01:29:00Z');
const context = { receivedAt };

describe('GitHub webhook mapping', () => {
  it('maps every deployment_status example to a deployment event with environment, sha, actor, url', () => {
    const mapped = examplesOf('deployment_status').map((body) => mapGitHub({ event: 'deployment_status', delivery: 'd-1', body }, context));
    expect(mapped.map((m) => m.kind)).toEqual(['events', 'events', 'events', 'events']);
    const pages = mapped[1]!;
    if (pages.kind !== 'events') throw new Error(pages.kind);
    expect(pages.events[0]).toEqual({
      type: 'deployment',
      name: 'deploy_started',
      timestamp: '2022-01-03T01:28:40.000Z',
      severity: 'info',
      source: 'github',
      correlation_id: 'github-deployment-145988746',
      channel: 'github-pages',
      attributes: {
        environment: 'github-pages',
        commit_sha: 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e',
        deployed_by: 'github-pages[bot]',
        url: 'https://github.com/Codertocat/Hello-World/runs/145988746?check_suite_focus=true',
        version: 'master',
        state: 'in_progress',
        repository: 'Codertocat/Hello-World',
        deployment_id: 145988746,
        github_event: 'deployment_status',
        github_delivery: 'd-1',
      },
    });
    for (const m of mapped) {
      if (m.kind !== 'events') continue;
      expect(envelopeProblems(m.events)).toBeNull();
      expect(m.events[0]!.attributes).toHaveProperty('commit_sha');
    }
    expect(mapped.filter((m) => m.kind === 'events' && m.events[0]!.name === 'deploy_finished')).toHaveLength(3);
  });

  it('maps deployment states: pending/queued/in_progress started, success finished, failure/error failed, inactive ignored', () => {
    const body = structuredClone(examplesOf('deployment_status')[0]!);
    const nameFor = (state: string) => {
      (body.deployment_status as Record<string, unknown>).state = state;
      const m = mapGitHub({ event: 'deployment_status', delivery: undefined, body }, context);
      return m.kind === 'events' ? m.events[0]!.name : m.kind;
    };
    expect(['pending', 'queued', 'in_progress', 'success', 'failure', 'error', 'inactive'].map(nameFor)).toEqual([
      'deploy_started',
      'deploy_started',
      'deploy_started',
      'deploy_finished',
      'deploy_failed',
      'deploy_failed',
      'ignored',
    ]);
  });

  it('maps every workflow_run example: requested started, completed by conclusion', () => {
    const mapped = examplesOf('workflow_run').map((body) => mapGitHub({ event: 'workflow_run', delivery: 'd-2', body }, context));
    const summary = mapped.map((m) => (m.kind === 'events' ? m.events[0]!.name : m.kind));
    // The first example is `completed` with no conclusion yet (status queued): nothing to report.
    expect(summary).toEqual(['ignored', 'deploy_finished', 'deploy_finished', 'deploy_started', 'deploy_started']);
    const done = mapped[1]!;
    if (done.kind !== 'events') throw new Error(done.kind);
    expect(done.events[0]).toMatchObject({
      type: 'deployment',
      name: 'deploy_finished',
      source: 'github',
      correlation_id: 'github-workflow-run-289782451',
      attributes: {
        commit_sha: '3484a3fb816e0859fd6e1cea078d76385ff50625',
        deployed_by: 'Codertocat',
        url: 'https://github.com/octo-org/octo-repo/actions/runs/289782451',
        conclusion: 'success',
        version: 'master',
      },
    });
    for (const m of mapped) if (m.kind === 'events') expect(envelopeProblems(m.events)).toBeNull();
  });

  it('maps failed conclusions to deploy_failed with severity error', () => {
    const body = structuredClone(examplesOf('workflow_run')[1]!);
    for (const conclusion of ['failure', 'timed_out', 'cancelled', 'startup_failure']) {
      (body.workflow_run as Record<string, unknown>).conclusion = conclusion;
      const m = mapGitHub({ event: 'workflow_run', delivery: undefined, body }, context);
      expect(m.kind === 'events' && [m.events[0]!.name, m.events[0]!.severity]).toEqual(['deploy_failed', 'error']);
    }
  });

  it('ignores every other event, ping and push included', () => {
    for (const name of ['ping', 'push', 'deployment', 'issues']) {
      const body = examplesOf(name)[0] ?? {};
      expect(mapGitHub({ event: name, delivery: undefined, body }, context).kind).toBe('ignored');
    }
  });

  it('refuses a delivery without X-GitHub-Event or with a body not of its event', () => {
    expect(mapGitHub({ event: undefined, delivery: undefined, body: {} }, context)).toEqual({
      kind: 'invalid',
      details: { 'x-github-event': ["can't be blank"] },
    });
    expect(mapGitHub({ event: 'deployment_status', delivery: undefined, body: { action: 'created' } }, context)).toEqual({
      kind: 'invalid',
      details: { deployment_status: ['must be an object'] },
    });
    expect(mapGitHub({ event: 'workflow_run', delivery: undefined, body: [] }, context).kind).toBe('invalid');
  });
});
