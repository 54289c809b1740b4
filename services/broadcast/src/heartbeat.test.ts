import { describe, expect, it } from 'vitest';
import { beat, type Beating } from './heartbeat.ts';
import { createClientMessageParser } from './client-messages.ts';

function peer(alive: boolean) {
  const calls: string[] = [];
  const c: Beating = { alive, ws: { ping: () => calls.push('ping'), terminate: () => calls.push('terminate') } };
  return { c, calls };
}

describe('heartbeat', () => {
  it('pings a peer that answered, and terminates one that did not answer the last ping', () => {
    const answered = peer(true);
    const silent = peer(false);
    beat([answered.c, silent.c]);
    expect(answered.calls).toEqual(['ping']);
    expect(answered.c.alive).toBe(false); // until its pong
    expect(silent.calls).toEqual(['terminate']);
  });

  it('a peer that never answers is gone at the second beat', () => {
    const p = peer(true);
    beat([p.c]);
    beat([p.c]);
    expect(p.calls).toEqual(['ping', 'terminate']);
  });
});

describe('client messages', () => {
  const parse = createClientMessageParser();
  it('reads messages of the protocol, refuses anything else', () => {
    expect(parse(JSON.stringify({ type: 'auth', token: 'pb_live_x' }))).toEqual({ type: 'auth', token: 'pb_live_x' });
    expect(parse('not json')).toBeUndefined();
    expect(parse(JSON.stringify({ type: 'no_such_message' }))).toBeUndefined();
  });
});
