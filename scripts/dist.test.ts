/** What `npm run dist` does about signing and notarising, from the environment it is given. */
import { describe, expect, it } from 'vitest';
import { signingPlan } from './dist.mjs';

const appleId = { APPLE_ID: 'a@b.c', APPLE_APP_SPECIFIC_PASSWORD: 'x', APPLE_TEAM_ID: 'T' };

describe('signing for npm run dist', () => {
  it('on macOS without a certificate, says it is neither signed nor notarised and signs with nothing found by chance', () => {
    const plan = signingPlan('darwin', {});
    expect(plan.messages).toEqual([
      expect.stringMatching(/^Not signed: set CSC_LINK/),
      expect.stringMatching(/^Not notarised: needs a signature/),
    ]);
    expect(plan.env).toEqual({ CSC_IDENTITY_AUTO_DISCOVERY: 'false' });
    expect(plan.args).toEqual(['-c.mac.notarize=false']);
  });

  it('on macOS with a certificate and an Apple ID, signs and notarises without a word', () => {
    const plan = signingPlan('darwin', { CSC_LINK: 'cert.p12', CSC_KEY_PASSWORD: 'p', ...appleId });
    expect(plan).toEqual({ messages: [], env: {}, args: ['-c.mac.notarize=true'] });
  });

  it('on macOS with a certificate but an incomplete Apple ID, signs and says why it does not notarise', () => {
    const plan = signingPlan('darwin', { CSC_LINK: 'cert.p12', APPLE_ID: 'a@b.c' });
    expect(plan.messages).toEqual([expect.stringMatching(/^Not notarised: needs .*APPLE_TEAM_ID/)]);
    expect(plan.args).toEqual(['-c.mac.notarize=false']);
  });

  it('on Windows without a certificate, says SmartScreen will warn', () => {
    expect(signingPlan('win32', {}).messages).toEqual([
      expect.stringMatching(/^Not signed: .*SmartScreen warns/),
    ]);
    expect(signingPlan('win32', { WIN_CSC_LINK: 'cert.pfx' }).messages).toEqual([]);
  });

  it('on Linux, says the packages are not signed', () => {
    expect(signingPlan('linux', {}).messages).toEqual([
      expect.stringMatching(/^Not signed: AppImage and deb/),
    ]);
  });
});
