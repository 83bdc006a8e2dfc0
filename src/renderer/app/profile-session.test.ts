import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { fakeApi } from '../testing/fake-api.ts';
import { openProfileSession } from './profile-session.ts';
import { profileStore } from './profile-stores.ts';

describe("a profile's session", () => {
  it("opens the profile's own cache", async () => {
    const session = openProfileSession(fakeApi().api, 'p1', () => undefined);
    await session.db.open();
    expect(session.db.name).toBe('fieldbook-p1');
    session.dispose();
  });

  it('closes its cache once the sync has written what it received', async () => {
    const session = openProfileSession(fakeApi().api, 'p2', () => undefined);
    await session.db.open();
    session.dispose();
    await expect.poll(() => session.db.isOpen()).toBe(false);
  });

  it('puts a profile store back as it was made when it ends, and a second dispose leaves the next profile alone', () => {
    const picked = profileStore(createStore<{ site: number | null }>()(() => ({ site: null })));
    const session = openProfileSession(fakeApi().api, 'p3', () => undefined);
    picked.setState({ site: 4 });
    session.dispose();
    expect(picked.getState().site).toBeNull();
    picked.setState({ site: 5 });
    session.dispose();
    expect(picked.getState().site).toBe(5);
  });
});
