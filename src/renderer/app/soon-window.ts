/**
 * The one "soon" window: how many days ahead a credential counts as expiring soon and
 * a training assignment as due soon. Every view, the dashboard and the report read it
 * from here (changeable in Settings); a view may offer its own days box, but it starts
 * from this value. Kept in this window's local storage: it is a preference of this
 * laptop, never sent anywhere.
 */
import { useState } from 'react';
import { create } from 'zustand';

export const DEFAULT_SOON_DAYS = 30;
export const MAX_SOON_DAYS = 365;
const STORAGE_KEY = 'fieldbook.soonDays';

/** A stored or typed value as a whole number of days in 1..365, or the default when unreadable. */
export function readSoonDays(raw: string | null | undefined): number {
  const n = Number(raw);
  if (raw === null || raw === undefined || raw.trim() === '' || !Number.isInteger(n) || n < 1)
    return DEFAULT_SOON_DAYS;
  return Math.min(n, MAX_SOON_DAYS);
}

function storage(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

interface SoonWindowState {
  days: number;
  setDays(days: number): void;
}

export const useSoonWindow = create<SoonWindowState>((set) => ({
  days: readSoonDays(storage()?.getItem(STORAGE_KEY)),
  setDays(days) {
    const value = readSoonDays(String(days));
    storage()?.setItem(STORAGE_KEY, String(value));
    set({ days: value });
  },
}));

/** The soon window in days, for a component. */
export function useSoonDays(): number {
  return useSoonWindow((s) => s.days);
}

/**
 * A view's own days box: it follows the setting until the person types another
 * number there (that number holds for this visit of the view only).
 */
export function useSoonDaysBox(): [number, (days: number) => void] {
  const soon = useSoonDays();
  const [own, setOwn] = useState<number | null>(null);
  return [own ?? soon, setOwn];
}
