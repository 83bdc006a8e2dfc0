/**
 * A person's status on the platform (spec/api-notes.md), in the coordinator's words.
 * The platform's "Offline" is an account that is active but has never been signed in
 * to: nothing to do with this laptop's "Work offline", so it is always said with its
 * meaning. Pure.
 */
/** The statuses the platform gives a person (its own words, sent as they are). */
export const PLATFORM_STATUSES = ['Active', 'Offline', 'Inactive'] as const;
export type PlatformStatus = (typeof PLATFORM_STATUSES)[number];

const MEANINGS: Readonly<Record<string, { short: string; sentence: string }>> = {
  active: { short: 'has signed in', sentence: 'The account is active and has been signed in to.' },
  offline: {
    short: 'never signed in',
    sentence:
      'The account is active but has never been signed in to (the platform’s word, not this laptop’s Work offline).',
  },
  inactive: {
    short: 'cannot sign in',
    sentence: 'The account cannot sign in; its history is kept, and setting it to Active brings it back.',
  },
};

function meaningOf(status: string) {
  return MEANINGS[status.trim().toLowerCase()];
}

/** "Offline (never signed in)", for the choices of a filter or an edit; unknown statuses as they are. */
export function personStatusChoice(status: string): string {
  const meaning = meaningOf(status);
  if (status.trim() === '') return '(none)';
  return meaning && status.trim().toLowerCase() !== 'active' ? `${status} (${meaning.short})` : status;
}

/** What a status means, in a sentence (shown beside it on a person's page, and as its tooltip in lists). */
export function personStatusMeaning(status: string): string | undefined {
  return meaningOf(status)?.sentence;
}
