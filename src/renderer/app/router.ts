/** Hash routing (`#/users/42`): survives a reload and needs no server, so it works from app:// and file://. */
import { useSyncExternalStore } from 'react';

export interface Location {
  /** first path segment: the route id ("users") */
  route: string;
  /** the segments after it (["42"]) */
  params: string[];
}

export function parseHash(hash: string): Location {
  const segments = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
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
