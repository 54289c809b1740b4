import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionProject, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { startTestGateway } from '../test/test-gateway.ts';

const MESSAGE = ['contains a NUL character or an unpaired surrogate'];
const RULE = { evaluation: { kind: 'up_down', attribute: 'is_up' } };

/**
 * The 13 inputs that reached Postgres as a 500 (issue 24: NUL in names,
 * settings keys, query parameters and project keys), and their lone-surrogate
 * twins, are refused by storable-input.ts with 400 `validation_error` naming
 * the field, on every kind of credential.
 */
describe('NUL and lone surrogates in bodies, query parameters and path ids', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let project: Awaited<ReturnType<typeof provisionProject>>;
  let tileId: number;
  let serviceId: number;
  const url = (path: string) => `${gateway.url}${path}`;
  // Bodies as hand-written JSON text: the escapes reach the gateway as a client would send them.
  const send = (method: string, path: string, token: string, rawBody?: string) =>
    request(url(path), { method, token, ...(rawBody === undefined ? {} : { rawBody, headers: { 'content-type': 'application/json' } }) });

  beforeAll(async () => {
    gateway = await startTestGateway();
    project = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const tile = await request(url('/api/v1/tiles'), { token: project.apiKey, body: { name: 'fine', kind: 'metric', rule: RULE } });
    expect(tile.status).toBe(201);
    tileId = tile.body.data.id;
    const service = await request(url('/api/v1/notifications'), {
      token: project.userToken,
      body: { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/x' } },
    });
    expect(service.status).toBe(201);
    serviceId = service.body.data.id;
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  for (const [what, escape, encoded] of [
    ['NUL', '\\u0000', '%00'],
    ['a lone surrogate', '\\ud800', null],
  ] as const) {
    it(`answers 400 validation_error naming the field for ${what} in a JSON body`, async () => {
      const p = project.projectKey;
      const cases: [method: string, path: string, token: string, body: string, field: string][] = [
        ['POST', '/api/v1/tiles', project.apiKey, `{"name":"a${escape}b","kind":"metric","rule":${JSON.stringify(RULE)}}`, 'name'],
        ['PUT', `/api/v1/tiles/${tileId}`, project.userToken, `{"name":"x${escape}"}`, 'name'],
        ['PUT', `/api/v1/tiles/${tileId}`, project.userToken, `{"settings":{"k${escape}":1}}`, 'settings'],
        ['POST', '/api/v1/notifications', project.userToken, `{"name":"n${escape}","type":"webhook","config":{"url":"https://hooks.example.com/x"}}`, 'name'],
        ['PUT', `/api/v1/notifications/${serviceId}`, project.userToken, `{"name":"n${escape}"}`, 'name'],
        ['POST', `/api/v1/notifications/${serviceId}/send_message`, project.userToken, `{"subject":"s","body":"b${escape}"}`, 'body'],
        ['PUT', `/api/v1/projects/${p}`, project.userToken, `{"name":"p${escape}"}`, 'name'],
        ['PUT', `/api/v1/projects/${p}`, project.userToken, `{"settings":{"key${escape}":true}}`, 'settings'],
        ['POST', '/api/v1/admin/accounts', TEST_ADMIN_TOKEN, `{"name":"acc${escape}"}`, 'name'],
        ['POST', `/api/v1/admin/accounts/${project.accountId}/projects`, TEST_ADMIN_TOKEN, `{"project_key":"k${escape}","name":"x"}`, 'project_key'],
      ];
      for (const [method, path, token, body, field] of cases) {
        const answer = await send(method, path, token, body);
        expect({ method, path, body, status: answer.status }).toEqual({ method, path, body, status: 400 });
        expect(answer.body).toEqual({ error: { code: 'validation_error', message: expect.any(String), details: { [field]: MESSAGE } } });
      }
      // Nothing changed.
      expect((await request(url(`/api/v1/tiles/${tileId}`), { token: project.apiKey })).body.data.name).toBe('fine');
      expect((await request(url(`/api/v1/projects/${p}`), { token: project.apiKey })).body.data.name).toBe(`Project ${p}`);
    });

    if (encoded !== null) {
      it(`answers 400 validation_error naming the parameter for ${what} in a query parameter or path id`, async () => {
        const p = project.projectKey;
        const cases: [path: string, token: string, field: string][] = [
          [`/api/v1/events?project_key=${p}&name=a${encoded}`, project.apiKey, 'name'],
          [`/api/v1/events?project_key=${p}&source=${encoded}`, project.apiKey, 'source'],
          [`/api/v1/events?project_key=${p}&label=x${encoded}`, project.apiKey, 'label'],
          [`/api/v1/events?project_key=${encoded}`, project.userToken, 'project_key'],
          [`/api/v1/projects?project_key=${encoded}`, project.userToken, 'project_key'],
          [`/api/v1/tiles?project_key=${encoded}`, project.userToken, 'project_key'],
          [`/api/v1/rate_limits?project_key=${encoded}`, project.userToken, 'project_key'],
          [`/api/v1/projects/a${encoded}b`, project.userToken, 'id'],
          [`/api/v1/tiles/1${encoded}`, project.userToken, 'id'],
          [`/api/v1/events/evt_${encoded}`, project.apiKey, 'id'],
        ];
        for (const [path, token, field] of cases) {
          const answer = await request(url(path), { token });
          expect({ path, status: answer.status }).toEqual({ path, status: 400 });
          expect(answer.body).toEqual({ error: { code: 'validation_error', message: expect.any(String), details: { [field]: MESSAGE } } });
        }
      });
    }
  }

  it('answers 400 bad_request in the documented shape to a URL that is not valid percent-encoded UTF-8 (an encoded surrogate, overlong forms)', async () => {
    for (const path of ['/api/v1/projects/%ED%A0%80', '/api/v1/events/%C0%80', '/api/v1/tiles/%uD800']) {
      const answer = await request(url(path), { token: project.userToken });
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
      expect(answer.body).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    }
    // The query string parser reads a broken sequence as U+FFFD (storable): an ordinary not-found.
    const query = await request(url('/api/v1/tiles?project_key=%ED%A0%80'), { token: project.userToken });
    expect(query.status).toBe(404);
    expect(query.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    const ingest = await request(url('/ingest/%ED%A0%80'), { token: project.apiKey, body: {} });
    expect(ingest.status).toBe(400);
    expect(ingest.body).toEqual({ status: 'error', code: 'bad_request', message: expect.any(String) });
  });

  it('still accepts escapes of storable characters (a surrogate pair among them), decoded', async () => {
    const answer = await send('PUT', `/api/v1/tiles/${tileId}`, project.userToken, '{"name":"caf\\u00e9 \\ud83d\\udca5"}');
    expect(answer.status).toBe(200);
    expect(answer.body.data.name).toBe('café 💥');
    const query = await request(url(`/api/v1/events?project_key=${project.projectKey}&name=caf%C3%A9`), { token: project.apiKey });
    expect(query.status).toBe(200);
  });
});
