/**
 * The scale benchmark's profile, page side: main's profile of the bench's
 * reference server (the harness's demo), active, keeping the sites asked for,
 * set through main's handlers as the Settings view sets them (no sync started:
 * the driver starts it from the app's own button, and times it).
 */
import { mainApi } from './replay.ts';

export async function keepSites(siteids: number[] | null): Promise<string> {
  const api = await mainApi();
  const started = await api['demo:start']();
  if (!started.ok) throw new Error(`demo:start: ${started.error.message}`);
  const activated = await api['profiles:activate']({ id: started.value.id });
  if (!activated.ok) throw new Error(`profiles:activate: ${activated.error.message}`);
  const kept = await api['profiles:setKeptSites']({ id: started.value.id, siteids });
  if (!kept.ok) throw new Error(`profiles:setKeptSites: ${kept.error.message}`);
  return started.value.id;
}
