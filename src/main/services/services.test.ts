import { describe, expect, it, vi } from 'vitest';
import type { HandlerContext, TokenAccess } from '../../shared/ipc.ts';
import type { ProfileStore, StoredProfile } from '../secrets/profiles.ts';
import { createAccessService } from './access.ts';
import { createDemoService } from './demo.ts';

describe('the demo service', () => {
  it('starts the demo server once however often it is asked', async () => {
    const start = vi.fn(async () => ({ baseUrl: 'http://127.0.0.1:1/v1', token: 't' }));
    const demo = createDemoService({ start });
    await Promise.all([demo.start(), demo.start()]);
    await demo.start();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('says the demo could not start, and tries again when asked again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const start = vi
      .fn()
      .mockRejectedValueOnce(new Error('port in use'))
      .mockResolvedValueOnce({ baseUrl: 'http://127.0.0.1:1/v1', token: 't' });
    const demo = createDemoService({ start });
    await expect(demo.start()).rejects.toMatchObject({
      appError: { code: 'internal', message: expect.stringContaining('The demo could not be started') },
    });
    await expect(demo.start()).resolves.toEqual({ baseUrl: 'http://127.0.0.1:1/v1', token: 't' });
  });
});

describe('the access service', () => {
  const profile = { id: 'p1', access: 'unknown' } as StoredProfile;
  const ctx: HandlerContext = { emit: () => undefined };

  function service() {
    const stored: TokenAccess[] = [];
    const announced: number[] = [];
    const store = {
      setAccess: async (_id: string, access: TokenAccess) => void stored.push(access),
    } as unknown as ProfileStore;
    const access = createAccessService(store, { profilesChanged: async () => void announced.push(1) });
    return { access, stored, announced };
  }

  it('stores and announces an access level that differs from the profile’s', async () => {
    const { access, stored, announced } = service();
    await access.learn(profile, 'readonly', ctx);
    expect(stored).toEqual(['readonly']);
    expect(announced).toHaveLength(1);
  });

  it('stores and announces nothing when the level is what the profile already says', async () => {
    const { access, stored, announced } = service();
    await access.learn(profile, 'unknown', ctx);
    expect(stored).toEqual([]);
    expect(announced).toEqual([]);
  });
});
