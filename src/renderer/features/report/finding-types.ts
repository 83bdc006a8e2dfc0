/**
 * The kinds of finding the report knows, in the order it shows them. A module of
 * its own (it imports nothing), so the database's row types can name them
 * without importing the report's model.
 */
export const FINDING_TYPES = [
  'Missing',
  'Expired',
  'Training overdue',
  'Expires soon',
  'Training due soon',
] as const;
export type FindingType = (typeof FINDING_TYPES)[number];
