import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connection.js';
import { enqueueMessage } from '../messaging/outbox.js';
import { systemClock } from '../lib/clock.js';
import { STARTUP_MS, startServerProcess } from '../test/server-process.js';
import { FaultySmtp } from './peers.js';

// SIGTERM while the SMTP relay holds a send: the node aborts the send, hands the message back and
// exits 0 within its grace period; the next node to start sends the message exactly once.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('SIGTERM during a hung send', () => {
  let smtp: FaultySmtp;
  let dataDir: string;
  beforeAll(async () => {
    smtp = await new FaultySmtp().listen();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-fault-shutdown-'));
  });
  afterAll(async () => {
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts a node on the shared data directory; resolves once it is ready. */
  const startNode = () =>
    startServerProcess({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SHUTDOWN_GRACE_MS: '200',
      SMTP_URL: smtp.url,
      // Long relay time-outs and send deadline: only the shutdown can end the hung send.
      SMTP_TIMEOUT_MS: '120000',
      OUTBOX_SEND_TIMEOUT_MS: '120000',
      OUTBOX_POLL_MS: '100',
    });

  it(
    'aborts the send, exits 0, and the restarted node sends the message once',
    async () => {
      smtp.mode = 'stall-data';
      const first = await startNode();
      const database = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'hygie.sqlite') });
      try {
        const id = await enqueueMessage(database.db, systemClock, {
          channel: 'email',
          recipient: 'shutdown@hygie.test',
          template: 'verification_code',
          language: 'fr',
          brand: 'hygie',
          params: { code: '424242' },
        });
        await until(() => smtp.stalled > 0, 20_000, 'the relay to hold the send');

        const signalled = Date.now();
        first.child.kill('SIGTERM');
        expect(await first.exited).toBe(0);
        expect(Date.now() - signalled).toBeLessThan(10_000);
        const row = await database.db
          .selectFrom('outbox')
          .select(['status', 'attempts', 'lease_owner', 'locked_until'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        // Handed back untouched: no attempt counted, no lease left to wait out.
        expect(row).toEqual({
          status: 'pending',
          attempts: 0,
          lease_owner: null,
          locked_until: null,
        });

        smtp.mode = 'ok';
        const second = await startNode();
        try {
          await smtp.waitFor(1, 20_000);
          await until(
            async () =>
              (
                await database.db
                  .selectFrom('outbox')
                  .select('status')
                  .where('id', '=', id)
                  .executeTakeFirstOrThrow()
              ).status === 'sent',
            10_000,
            'the message to be settled',
          );
          await sleep(300);
          expect([...smtp.accepted]).toEqual([[id, 1]]);
        } finally {
          second.child.kill('SIGTERM');
          expect(await second.exited).toBe(0);
        }
      } finally {
        first.child.kill('SIGKILL');
        await database.close();
      }
    },
    2 * STARTUP_MS + 30_000,
  ); // two tsx start-ups, slow on a loaded machine
});
