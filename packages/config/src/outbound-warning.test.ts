import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { warnOutboundPolicy } from './outbound-warning.ts';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) });
  return { lines, logger: createLogger('test', 'info', stream) };
}

describe('outbound development settings', () => {
  it('warn at start when exact loopback targets or private targets are allowed, and say nothing otherwise', () => {
    const off = capture();
    warnOutboundPolicy({ NOTIFY_ALLOW_TARGETS: '', NOTIFY_ALLOW_PRIVATE: false }, off.logger);
    expect(off.lines).toEqual([]);
    const on = capture();
    warnOutboundPolicy({ NOTIFY_ALLOW_TARGETS: '127.0.0.1:4567', NOTIFY_ALLOW_PRIVATE: true }, on.logger);
    expect(on.lines.map((l) => [l.level, l.event])).toEqual([
      [40, 'outbound_targets_allowed'],
      [40, 'outbound_private_allowed'],
    ]);
  });
});
