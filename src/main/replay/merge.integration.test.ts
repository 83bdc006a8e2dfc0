/**
 * A conflict resolved field by field, against the real reference server: the
 * merged record is what reaches the server, and it is checked like any update —
 * a further change made behind the coordinator's back after the resolution is a
 * conflict again, never overwritten.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tokenFor, type RunningServer } from '../../server/index.ts';
import { ApiClient } from '../api/client.ts';
import { openOutboxOnlyDb } from '../../shared/replay-queue/db.ts';
import { OutboxEngine, type ReplayExecutor } from '../../shared/replay-queue/engine.ts';
import { enqueueOps, resolveConflicts } from '../../shared/replay-queue/queue.ts';
import { executeReplay } from './index.ts';

describe('a conflict resolved field by field, replayed', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dataset: 'tiny', admin: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends the merged record, and stops again when the server changes once more', async () => {
    const person = server.snapshot().users.find((u) => u.status === 'Active')!;
    const read = () => server.snapshot().users.find((u) => u.userid === person.userid)!;
    const db = openOutboxOnlyDb('merge-integration');
    const client = new ApiClient({
      baseUrl: server.baseUrl,
      token: tokenFor(server, 'full'),
      timeoutMs: 5_000,
    });
    const execute: ReplayExecutor = async (req, signal) => ({
      ok: true,
      value: await executeReplay(client, req, signal),
    });
    const engine = await OutboxEngine.open({
      db,
      execute,
      actor: 'integration',
      backoff: { baseMs: 1, maxMs: 5 },
    });
    const drain = async () => {
      await engine.reload();
      await engine.whenIdle();
    };

    // the coordinator's edit, made from what they had synced; head office changes both fields meanwhile
    const [op] = await enqueueOps(db, [
      {
        op: {
          kind: 'user.update',
          userid: person.userid,
          changes: { firstname: 'Mine', lastname: 'Minelast', status: 'Inactive' },
        },
        base: { firstname: person.firstname, lastname: person.lastname, status: 'Active' },
        summary: 'edit',
      },
    ]);
    expect(
      server.mutate({
        resource: 'user',
        id: person.userid,
        changes: { firstname: 'Headoffice', status: 'Offline' },
      }),
    ).toBe(true);
    engine.setOnline(true);
    await drain();
    expect(await db.outbox.get(op!.id)).toMatchObject({
      status: 'conflict',
      conflictFields: ['firstname', 'status'],
    });

    // their first name, my status — then someone changes the status again before it is sent
    engine.setOnline(false);
    await resolveConflicts(db, [op!.id], { firstname: 'theirs', status: 'mine' }, 'c');
    expect(server.mutate({ resource: 'user', id: person.userid, changes: { status: 'Leave' } })).toBe(true);
    engine.setOnline(true);
    await drain();
    expect(await db.outbox.get(op!.id)).toMatchObject({ status: 'conflict', conflictFields: ['status'] });
    expect(read()).toMatchObject({ firstname: 'Headoffice', lastname: person.lastname, status: 'Leave' });

    // mine again, and nobody interferes: the merged record is what the server holds
    await resolveConflicts(db, [op!.id], 'mine', 'c');
    await drain();
    expect((await db.outbox.get(op!.id))?.status).toBe('done');
    expect(read()).toMatchObject({ firstname: 'Headoffice', lastname: 'Minelast', status: 'Inactive' });
    await engine.kill();
    db.close();
  });
});
