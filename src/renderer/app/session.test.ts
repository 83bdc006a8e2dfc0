import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ProfileSummary, ProfilesState } from '../../shared/ipc.ts';
import { applyProfiles, sessionStore } from './session.ts';
import { fakeApi } from '../testing/fake-api.ts';
import { userSelectionStore } from '../features/users/selection.ts';
import { usersViewStore } from '../features/users/view-store.ts';
import { useLastImport } from '../features/import/ImportResults.tsx';
import { useReportChoices } from '../features/report/choices.ts';
import { useAsOfDay } from '../features/report/AsOfControl.tsx';

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

  describe("a profile's view state", () => {
    /** In the active profile: one person selected, a search and a filter, an import's results, a report site. */
    function chooseThings() {
      userSelectionStore.getState().selectAll([7]);
      usersViewStore.getState().setText('novak');
      usersViewStore.getState().setFilter('status', 'Active');
      useLastImport.setState({
        run: {
          fileName: 'hr.csv',
          headers: [],
          rows: [],
          plans: new Map(),
          opsByRow: new Map([[2, ['op-1']]]),
        },
      });
      useReportChoices.getState().set({ groupid: 12, findingTypes: [] });
      useAsOfDay.getState().set('2026-03-02');
    }

    it('is not carried into the next profile', () => {
      sessionStore.setState({ api: fakeApi().api });
      applyProfiles(state('p1'));
      chooseThings();
      applyProfiles(state('p2'));
      expect(userSelectionStore.getState().selected.size).toBe(0);
      expect(usersViewStore.getState()).toMatchObject({ text: '', filters: {} });
      expect(useLastImport.getState().run).toBeNull();
      expect(useReportChoices.getState()).toMatchObject({
        groupid: null,
        findingTypes: useReportChoices.getInitialState().findingTypes,
      });
      expect(useAsOfDay.getState().day).toBeNull();
    });

    it('is forgotten when the last profile is removed', () => {
      sessionStore.setState({ api: fakeApi().api });
      applyProfiles(state('p1'));
      chooseThings();
      applyProfiles(state(null));
      expect(userSelectionStore.getState().selected.size).toBe(0);
      expect(useLastImport.getState().run).toBeNull();
    });

    it('stays while the same profile stays active', () => {
      sessionStore.setState({ api: fakeApi().api });
      applyProfiles(state('p1'));
      chooseThings();
      applyProfiles({ ...state('p1'), profiles: [profile('p1')] });
      expect([...userSelectionStore.getState().selected]).toEqual([7]);
      expect(usersViewStore.getState().text).toBe('novak');
      expect(useReportChoices.getState().groupid).toBe(12);
    });
  });
});
