/**
 * Saving the kept sites holds every sync: one started in between would read the old list and bring a removed site back.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createSyncController } from './controller.ts';
import { createSyncStore } from './store.ts';
import { SAVING_KEPT_SITES, whileSyncHeld } from './hold.ts';
import { fakeApi } from '../testing/fake-api.ts';
import { freshDb } from '../testing/fixtures.ts';

function setup() {
  const fake = fakeApi();
  fake.respond('sync:start', () => ({ ok: true, value: { syncId: 'sync-1', tasks: [] } }));
  const store = createSyncStore();
  const controller = createSyncController(fake.api, freshDb(), store);
  const starts = () => fake.calls.filter((c) => c.channel === 'sync:start').length;
  return { store, controller, starts };
}

describe('a sync while the kept sites are being saved', () => {
  it('does not start while the save runs, and the Sync button can say why', async () => {
    const { store, controller, starts } = setup();
    let meanwhile: unknown = null;
    let asked: Promise<void> = Promise.resolve();
    await whileSyncHeld(store, SAVING_KEPT_SITES, async () => {
      asked = controller.start();
      await new Promise((r) => setTimeout(r, 0));
      meanwhile = {
        starts: starts(),
        running: store.getState().running,
        held: store.getState().held,
        waits: store.getState().startsAfterHold,
      };
    });
    await asked;
    expect(meanwhile).toEqual({
      starts: 0,
      running: false,
      held: 'The sites kept on this laptop are being saved: sync once that is done.',
      waits: true,
    });
  });

  it('runs a sync the app asked for meanwhile once the save is over, once however often it was asked', async () => {
    const { store, controller, starts } = setup();
    let asked: Promise<void>[] = [];
    await whileSyncHeld(store, SAVING_KEPT_SITES, async () => {
      // back from "Work offline" while the save runs, and a site added by the same save
      asked = [controller.start(), controller.start()];
    });
    await Promise.all(asked);
    expect(starts()).toBe(1);
    expect(store.getState()).toMatchObject({ running: true, startsAfterHold: false });
  });

  it('starts nothing after the save when the profile was switched meanwhile (its controller disposed)', async () => {
    const { store, controller, starts } = setup();
    let asked: Promise<void> = Promise.resolve();
    await whileSyncHeld(store, SAVING_KEPT_SITES, async () => {
      asked = controller.start();
      controller.dispose();
    });
    await asked;
    expect(starts()).toBe(0);
  });

  it('starts once the save is over', async () => {
    const { store, controller, starts } = setup();
    await whileSyncHeld(store, SAVING_KEPT_SITES, async () => {});
    expect(store.getState().held).toBeNull();
    await controller.start();
    expect(starts()).toBe(1);
  });

  it('lets syncs start again when the save fails', async () => {
    const { store, controller, starts } = setup();
    await expect(
      whileSyncHeld(store, SAVING_KEPT_SITES, () => Promise.reject(new Error('disk full'))),
    ).rejects.toThrow('disk full');
    expect(store.getState().held).toBeNull();
    await controller.start();
    expect(starts()).toBe(1);
  });

  it('refuses to save while a sync runs (nothing removed), since the sync already read the list', async () => {
    const { store, controller } = setup();
    await controller.start();
    let ran = false;
    expect(
      await whileSyncHeld(store, SAVING_KEPT_SITES, async () => {
        ran = true;
      }),
    ).toBeNull();
    expect(ran).toBe(false);
  });
});
