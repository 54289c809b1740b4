import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, readTopic, request, topicMessageCount, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

describe('an event travels gateway → Kafka → store → Postgres → read API (real processes)', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let project: Awaited<ReturnType<typeof pipeline.provision>>;

  beforeAll(async () => {
    pipeline = await startPipeline();
    await pipeline.startStore();
    project = await pipeline.provision();
  });
  afterAll(async () => {
    await pipeline?.stop();
  });

  it('answers 201 with the spec 4.1 body and the event becomes readable', async () => {
    const sent = envelope(project.projectKey, { severity: 'info', labels: ['prod'], correlation_id: 'wf-1' });
    const res = await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: sent });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: 'accepted',
      event_id: expect.any(Number),
      message: expect.any(String),
      quota_used: 1,
      quota_limit: 10000,
      rate_limit_remaining: 99,
    });
    const id = res.body.event_id as number;
    const list = await waitFor(
      async () => {
        const r = await request(`${pipeline.url}/api/v1/events`, { token: project.apiKey });
        return r.body.data?.length === 1 ? r : undefined;
      },
      { what: 'the event to be stored' },
    );
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ current_page: 1, total_pages: 1, total_count: 1, per_page: 25 });
    expect(list.body.data[0]).toMatchObject({
      event_id: id,
      type: 'deployment',
      name: 'deploy_finished',
      labels: ['prod'],
      correlation_id: 'wf-1',
      attributes: sent.attributes,
    });

    for (const ref of [String(id), `evt_${id}`]) {
      const one = await request(`${pipeline.url}/api/v1/events/${ref}`, { token: project.apiKey });
      expect(one.status).toBe(200);
      expect(one.body.data.event_id).toBe(id);
    }
  });

  it("hides another project's events (404) and lists only the key's own", async () => {
    const other = await pipeline.provision();
    const res = await request(`${pipeline.url}/ingest`, { token: other.apiKey, body: envelope(other.projectKey) });
    expect(res.status).toBe(201);
    await waitFor(async () => (await request(`${pipeline.url}/api/v1/events/${res.body.event_id}`, { token: other.apiKey })).status === 200, {
      what: 'other event stored',
    });
    const foreign = await request(`${pipeline.url}/api/v1/events/${res.body.event_id}`, { token: project.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    const mine = await request(`${pipeline.url}/api/v1/events`, { token: project.apiKey });
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.body.data.every((e: { project_key: string }) => e.project_key === project.projectKey)).toBe(true);
  });

  it('answers a bad envelope 400 with details and produces nothing', async () => {
    const before = await topicMessageCount(pipeline.env.TOPIC_EVENTS!);
    const res = await request(`${pipeline.url}/ingest`, {
      token: project.apiKey,
      body: { project_key: project.projectKey, type: 'nonsense', timestamp: 'not a time', attributes: 'x' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'error',
      code: 'validation_error',
      message: expect.any(String),
      details: {
        type: ['is not included in the list'],
        name: ["can't be blank"],
        timestamp: ['is not a valid ISO 8601 timestamp'],
        attributes: ['must be an object'],
      },
    });
    // A valid event afterwards proves the topic is live; only it may have been added.
    const ok = await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey) });
    expect(ok.status).toBe(201);
    const messages = await readTopic(pipeline.env.TOPIC_EVENTS!);
    expect(messages.length).toBe(before + 1);
    expect(messages.filter((m) => JSON.parse(m.value!).type === 'nonsense')).toEqual([]);
  });

  it('writes the event to Kafka keyed by project, with the documented headers', async () => {
    const res = await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey, { name: 'deploy_started' }) });
    expect(res.status).toBe(201);
    const messages = await readTopic(pipeline.env.TOPIC_EVENTS!);
    const mine = messages.find((m) => m.headers['pb-event-id'] === String(res.body.event_id));
    expect(mine).toBeDefined();
    expect(mine!.key).toBe(project.projectKey);
    expect(mine!.headers['pb-schema']).toBe('ingested-event/1');
    expect(JSON.parse(mine!.value!)).toMatchObject({ id: res.body.event_id, project_key: project.projectKey, name: 'deploy_started' });
  });
});
