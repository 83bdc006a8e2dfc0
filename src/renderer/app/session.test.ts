import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ProfileSummary, ProfilesState } from '../../shared/ipc.ts';
import { applyProfiles, sessionStore } from './session.ts';
import { fakeApi } from '../testing/fake-api.ts';

const profile = (id: string): ProfileSummary => ({
  id,
  name: id,
  baseUrl: 'http://127.0.0.1:1/v1',
  hasToken: true,
  tokenHint: '••••abcd',
  isDemo: false,
  access: 'full',
  workOffline: false,
});
const state = (activeId: string | null): ProfilesState => ({
  profiles: [profile('p1'), profile('p2')],
  activeId,
  keychain: { available: true },
});

describe('the session', () => {
  it("opens the active profile's own cache and switches caches with the profile", () => {
    sessionStore.setState({ api: fakeApi().api });
    applyProfiles(state('p1'));
    const first = sessionStore.getState().db;
    expect(first?.name).toBe('fieldbook-p1');
    applyProfiles(state('p2'));
    expect(sessionStore.getState().db?.name).toBe('fieldbook-p2');
    expect(sessionStore.getState().activeProfile?.id).toBe('p2');
  });

  it('keeps the open cache when the profiles change but the active one does not', () => {
    sessionStore.setState({ api: fakeApi().api });
    applyProfiles(state('p1'));
    const db = sessionStore.getState().db;
    applyProfiles({ ...state('p1'), profiles: [profile('p1')] });
    expect(sessionStore.getState().db).toBe(db);
  });

  it('has no cache when no profile is active', () => {
    sessionStore.setState({ api: fakeApi().api });
    applyProfiles(state(null));
    expect(sessionStore.getState().db).toBeNull();
  });
});
