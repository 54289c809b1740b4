import { describe, expect, it } from 'vitest';
import { ReplyWaiter, sendAndAwaitReply } from './reply-waiter.ts';

describe('ReplyWaiter', () => {
  it('resolves once every id of the request has its reply, ignoring other ids', async () => {
    const replies = new ReplyWaiter<number, number>();
    const watch = replies.watch([1, 2]);
    replies.receive(3, 9);
    replies.receive(1, 2);
    replies.receive(2, 0);
    expect(await watch.result(1000)).toEqual(
      new Map([
        [1, 2],
        [2, 0],
      ]),
    );
    expect(replies.waiting).toBe(0);
  });

  it('gives undefined past the bound and forgets the request', async () => {
    const replies = new ReplyWaiter<number, number>();
    const watch = replies.watch([1, 2]);
    replies.receive(1, 1);
    expect(await watch.result(20)).toBeUndefined();
    expect(replies.waiting).toBe(0);
  });

  it('a reply that arrived before result() was asked for still counts', async () => {
    const replies = new ReplyWaiter<string, { status: string }>();
    const watch = replies.watch(['msg_1']);
    replies.receive('msg_1', { status: 'delivered' });
    expect(await watch.result(0)).toEqual(new Map([['msg_1', { status: 'delivered' }]]));
  });

  it('cancel() releases a watch whose request failed before waiting (nothing left behind)', () => {
    const replies = new ReplyWaiter<string, number>();
    const watch = replies.watch(['msg_2']);
    expect(replies.waiting).toBe(1);
    watch.cancel();
    expect(replies.waiting).toBe(0);
    replies.receive('msg_2', 1);
    expect(replies.waiting).toBe(0);
  });

  it('sendAndAwaitReply (a notification send): a failed send rejects and leaves no waiter behind', async () => {
    const replies = new ReplyWaiter<string, number>();
    await expect(sendAndAwaitReply(replies, 'msg_3', async () => Promise.reject(new Error('broker down')), 1000)).rejects.toThrow('broker down');
    expect(replies.waiting).toBe(0);
  });

  it('sendAndAwaitReply: watched before the send, so a reply during the send counts; none within the bound is undefined', async () => {
    const replies = new ReplyWaiter<string, number>();
    expect(await sendAndAwaitReply(replies, 'msg_4', async () => replies.receive('msg_4', 7), 1000)).toBe(7);
    expect(await sendAndAwaitReply(replies, 'msg_5', async () => undefined, 10)).toBeUndefined();
    expect(replies.waiting).toBe(0);
  });
});
