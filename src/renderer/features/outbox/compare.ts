/** Two values the user would call the same (text compared trimmed and without regard to case). */
export function sameValueForUser(a: unknown, b: unknown): boolean {
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim().toLowerCase());
  return text(a) === text(b);
}

export function displayValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
