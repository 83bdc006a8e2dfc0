import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUR_CUSTOMER } from '../src/server/datasets.ts';
import { startServer, tokenFor, type RunningServer } from '../src/server/index.ts';
import { transferOnlyPass } from './transfer-pass.ts';

describe("a transfer-only pass of main's engine (the all-sites plan's bytes, without a renderer)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dataset: 'demo', port: 0 });
  });
  afterAll(() => server.close());

  it("reads every record the token sees, counting the plan's requests and the bytes of their answers", async () => {
    const all = await transferOnlyPass(server.baseUrl, tokenFor(server, 'full'));
    const users = server.query(
      'SELECT u.userid FROM users u JOIN sites s ON s.siteid = u.siteid WHERE s.customerid = ?',
      OUR_CUSTOMER,
    ).length;
    expect(all.finished.collections.users?.records).toBe(users);
    expect(all.requests).toBe(all.finished.requests);
    expect(all.requests).toBe(all.finished.plannedRequests);
    expect(all.bytes).toBeGreaterThan(all.records * 50);
  });

  it("reads less for a profile keeping one site of two, and only that site's people", async () => {
    const [first] = server.query<{ siteid: number }>(
      'SELECT siteid FROM sites WHERE customerid = ? ORDER BY siteid',
      OUR_CUSTOMER,
    );
    const token = tokenFor(server, 'full');
    const all = await transferOnlyPass(server.baseUrl, token);
    const one = await transferOnlyPass(server.baseUrl, token, [first!.siteid]);
    expect(one.finished.collections.users?.records).toBe(
      server.query('SELECT userid FROM users WHERE siteid = ?', first!.siteid).length,
    );
    expect(one.bytes).toBeLessThan(all.bytes);
  });

  it('says so when the pass cannot complete', async () => {
    await expect(transferOnlyPass(server.baseUrl, 'not-a-token')).rejects.toThrow(
      'the transfer-only pass did not complete',
    );
  });
});
