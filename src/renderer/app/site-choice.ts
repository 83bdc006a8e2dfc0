/**
 * The site the coordinator looks after: one choice for the dashboard and the
 * pickers (null: every site). Remembered per profile in this window's local
 * storage, like the soon window: a preference of this laptop, never sent anywhere.
 */
import { create } from 'zustand';
import { profileStore } from './profile-stores.ts';

const KEY_PREFIX = 'fieldbook.site.';

function storage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The site remembered for a profile: its id, or null (every site) when none, or unreadable. */
export function rememberedSite(profileId: string): number | null {
  const raw = storage()?.getItem(KEY_PREFIX + profileId);
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : null;
}

/** Remembers a profile's site (null: every site, nothing kept). */
export function rememberSite(profileId: string, siteid: number | null): void {
  if (siteid === null) storage()?.removeItem(KEY_PREFIX + profileId);
  else storage()?.setItem(KEY_PREFIX + profileId, String(siteid));
}

interface SiteChoiceState {
  /** profile id -> chosen site, once chosen in this window (else read from storage) */
  chosen: Record<string, number | null>;
  choose(profileId: string, siteid: number | null): void;
}

// forgotten at a profile switch: the next look reads the profile's choice from local storage again
const useSiteChoiceStore = profileStore(
  create<SiteChoiceState>((set) => ({
    chosen: {},
    choose(profileId, siteid) {
      rememberSite(profileId, siteid);
      set((s) => ({ chosen: { ...s.chosen, [profileId]: siteid } }));
    },
  })),
);

/** The site chosen in this profile (null: every site), and how to choose another. */
export function useSiteChoice(
  profileId: string | undefined,
): [number | null, (siteid: number | null) => void] {
  const stored = useSiteChoiceStore((s) => (profileId === undefined ? null : s.chosen[profileId]));
  const choose = useSiteChoiceStore((s) => s.choose);
  const siteid = stored !== undefined ? stored : rememberedSite(profileId!);
  return [
    siteid,
    (next) => {
      if (profileId !== undefined) choose(profileId, next);
    },
  ];
}
