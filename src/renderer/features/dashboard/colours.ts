/**
 * Chart colours tied to meaning: each user status always has its own colour
 * (Active green, Inactive grey, Offline amber, none red), whatever its rank in
 * the data; a status the app does not know gets one of a fixed set by its name,
 * so it keeps that colour from one sync to the next.
 */
const KNOWN: Readonly<Record<string, string>> = {
  active: '#16a34a',
  inactive: '#64748b',
  offline: '#d97706',
  '': '#dc2626',
};
const OTHERS = ['#2563eb', '#7c3aed', '#0891b2', '#db2777', '#4d7c0f', '#9333ea'];

export function statusColour(status: string): string {
  const known = KNOWN[status.trim().toLowerCase()];
  if (known) return known;
  let hash = 0;
  for (const ch of status) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return OTHERS[hash % OTHERS.length]!;
}

/** Overdue is red, expiring amber, everywhere. */
export const MEANING_COLOUR = { overdue: '#dc2626', expiring: '#d97706' } as const;
