/** Hash routing (`#/users/42`): survives a reload and needs no server, so it works from app:// and file://. */
import { useSyncExternalStore } from 'react';

export interface Location {
  /** first path segment: the route id ("users") */
  route: string;
  /** the segments after it (["42"]) */
  params: string[];
}

/** The route of an address that cannot be read (`#/users/%`): the app shows its "not found" view there. */
export const NOT_FOUND_ROUTE = 'not-found';

/** A segment as typed, or null when its escapes are malformed (decodeURIComponent throws on `%` alone). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function parseHash(hash: string): Location {
  const segments: string[] = [];
  for (const raw of hash.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    const segment = decodeSegment(raw);
    if (segment === null) return { route: NOT_FOUND_ROUTE, params: [] };
    segments.push(segment);
  }
  return { route: segments[0] ?? '', params: segments.slice(1) };
}

export function hrefFor(route: string, ...params: (string | number)[]): string {
  return `#/${[route, ...params.map((p) => encodeURIComponent(String(p)))].join('/')}`;
}

export function navigate(route: string, ...params: (string | number)[]): void {
  window.location.hash = hrefFor(route, ...params);
}

function subscribe(callback: () => void): () => void {
  window.addEventListener('hashchange', callback);
  return () => window.removeEventListener('hashchange', callback);
}

export function useLocation(): Location {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseHash(hash);
}
