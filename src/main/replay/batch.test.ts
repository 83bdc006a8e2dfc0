import { describe, expect, it } from 'vitest';
import { NetworkSlots } from './batch.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('the network slots of the replay', () => {
  it('run at most their size at once, over every batch', async () => {
    const slots = new NetworkSlots(4);
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
    const slots = new NetworkSlots(1);
    const order: string[] = [];
    const blocker = slots.run(tick);
    const ops = ['op1', 'op2'].map((name) => slots.run(async () => void order.push(name)));
    const page = slots.run(async () => void order.push('page'), true);
    await Promise.all([blocker, ...ops, page]);
    expect(order).toEqual(['page', 'op1', 'op2']);
  });
});
