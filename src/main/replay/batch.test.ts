import { describe, expect, it } from 'vitest';
import type { ReplayOutcome, ReplayRequest } from '../../shared/ipc.ts';
import { executeBatch } from './batch.ts';
import { Semaphore } from '../../shared/semaphore.ts';
import type { ReplayClient } from './index.ts';
import { ListReads } from './list-reads.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('the network slots of the replay', () => {
  it('run at most their size at once, over every batch', async () => {
    const slots = new Semaphore(4);
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        slots.run(async () => {
          running += 1;
          most = Math.max(most, running);
          await tick();
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(4);
  });

  it('let a list page go ahead of the ops waiting for a slot', async () => {
    const slots = new Semaphore(1);
    const order: string[] = [];
    const blocker = slots.run(tick);
    const ops = ['op1', 'op2'].map((name) => slots.run(async () => void order.push(name)));
    const page = slots.run(async () => void order.push('page'), { first: true });
    await Promise.all([blocker, ...ops, page]);
    expect(order).toEqual(['page', 'op1', 'op2']);
  });
});

describe('a batch whose token is refused', () => {
  it('sends no more of its ops once the API refuses the token: they pause with the same answer', async () => {
    let requests = 0;
    const client: ReplayClient = {
      async request() {
        requests += 1;
        await tick();
        throw Object.assign(new Error('refused'), {
          appError: { code: 'token-rejected', message: 'The token was refused.', statuscode: 802 },
        });
      },
    };
    const ops: ReplayRequest[] = Array.from({ length: 40 }, (_, i) => ({
      opId: `op${i}`,
      op: { kind: 'email.remove', userid: 1, emailid: i + 1 },
      verifyFirst: false,
    }));
    const outcomes = new Map<string, ReplayOutcome>();
    await executeBatch(client, ops, {
      reads: new ListReads(),
      slots: new Semaphore(4),
      onOutcome: (opId, outcome) => void outcomes.set(opId, outcome),
    });
    expect(outcomes.size).toBe(40);
    expect([...outcomes.values()].every((o) => o.status === 'paused')).toBe(true);
    expect(requests).toBeLessThanOrEqual(4);
  });
});

describe('a batch whose replay fails in an unexpected way', () => {
  it('parks the op for review, never records it as done', async () => {
    class BrokenSlots extends Semaphore {
      override run<T>(): Promise<T> {
        return Promise.reject(new Error('a bug'));
      }
    }
    const client: ReplayClient = {
      request() {
        throw new Error('no request expected');
      },
    };
    const outcomes = new Map<string, ReplayOutcome>();
    const op: ReplayRequest = {
      opId: 'op1',
      op: { kind: 'email.remove', userid: 1, emailid: 2 },
      verifyFirst: false,
    };
    await executeBatch(client, [op], {
      reads: new ListReads(),
      slots: new BrokenSlots(4),
      onOutcome: (opId, outcome) => void outcomes.set(opId, outcome),
    });
    expect(outcomes.get('op1')).toMatchObject({
      status: 'needs-review',
      error: { message: 'The operation could not be replayed.' },
    });
  });
});
