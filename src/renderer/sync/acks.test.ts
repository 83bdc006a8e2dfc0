import { describe, expect, it, vi } from 'vitest';
import type { AppError, FieldbookApi, Result } from '../../shared/ipc.ts';
import { MAX_ACKS_PER_MESSAGE } from '../../shared/ipc-limits.ts';
import { createAcks } from './acks.ts';

function fakeAck(answer: Result<null> = { ok: true, value: null }) {
  const sent: { syncId: string; pageIds: number[] }[] = [];
  const api = {
    'sync:ack': async (arg: { syncId: string; pageIds: number[] }) => {
      sent.push(arg);
      return answer;
    },
  } as unknown as Pick<FieldbookApi, 'sync:ack'>;
  return { api, sent };
}

describe('acknowledging written pages', () => {
  it('sends nothing before a flush, then every written page once, one message per sync', () => {
    const { api, sent } = fakeAck();
    const acks = createAcks(api, vi.fn());
    acks.written({ syncId: 'a', pageId: 1 });
    acks.written({ syncId: 'b', pageId: 1 });
    acks.written({ syncId: 'a', pageId: 2 });
    expect(sent).toEqual([]);
    expect(acks.pending()).toBe(3);
    acks.flush();
    expect(sent).toEqual([
      { syncId: 'a', pageIds: [1, 2] },
      { syncId: 'b', pageIds: [1] },
    ]);
    acks.flush();
    expect(sent).toHaveLength(2);
    expect(acks.pending()).toBe(0);
  });

  it('splits a long run of pages into messages main accepts', () => {
    const { api, sent } = fakeAck();
    const acks = createAcks(api, vi.fn());
    for (let i = 1; i <= MAX_ACKS_PER_MESSAGE + 1; i++) acks.written({ syncId: 'a', pageId: i });
    acks.flush();
    expect(sent.map((m) => m.pageIds.length)).toEqual([MAX_ACKS_PER_MESSAGE, 1]);
  });

  it('reports a refused acknowledgement, but not one for a sync already cancelled', async () => {
    const refused: AppError = { code: 'internal', message: 'no' };
    const onError = vi.fn();
    const acks = createAcks(fakeAck({ ok: false, error: refused }).api, onError);
    acks.written({ syncId: 'a', pageId: 1 });
    acks.flush();
    const cancelled = createAcks(
      fakeAck({ ok: false, error: { code: 'cancelled', message: 'cancelled' } }).api,
      onError,
    );
    cancelled.written({ syncId: 'b', pageId: 1 });
    cancelled.flush();
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(onError).toHaveBeenCalledWith(refused);
  });
});
