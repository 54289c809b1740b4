import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

describe('service logger', () => {
  it('writes a stable event name with its context and redacts every credential field', () => {
    const { lines, stream } = capture();
    const logger = createLogger('test', 'info', stream);
    logger.info({
      event: 'notification_sent',
      api_key: 'pk_live_1',
      token: 'ut_1',
      config: { url: 'https://example.test/hook', secret: 'whsec_abc', webhook_url: 'https://hooks.slack.com/services/T/B/X', password: 'p' },
      row: { secrets: 'sealed' },
      req: { headers: { authorization: 'Bearer x', 'x-project-key': 'k', cookie: 'c', 'user-agent': 'curl' } },
    });
    const line = lines.join('');
    for (const secret of ['pk_live_1', 'ut_1', 'whsec_abc', 'hooks.slack.com', '"p"', 'sealed', 'Bearer x', '"k"', '"c"'])
      expect(line, secret).not.toContain(secret);
    const entry = JSON.parse(line);
    expect(entry).toMatchObject({
      service: 'test',
      event: 'notification_sent',
      config: { url: 'https://example.test/hook', secret: '[redacted]', webhook_url: '[redacted]' },
    });
    expect(entry.req.headers['user-agent']).toBe('curl');
  });
});
