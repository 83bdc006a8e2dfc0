/**
 * A token belongs to the origin (scheme, host, port) it was entered for. Main
 * drops a profile's token when its address moves to another origin; the profile
 * form asks for the token again as soon as the typed address does.
 */
export function sameTokenOrigin(a: string, b: string): boolean {
  try {
    return new URL(a.trim()).origin === new URL(b.trim()).origin;
  } catch {
    return false;
  }
}
