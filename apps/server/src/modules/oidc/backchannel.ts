import type Provider from 'oidc-provider';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import type { OutboxRow } from '../../db/schema.js';
import type { NoticeSender } from '../../messaging/dispatcher.js';
import { enqueuePlatformLogout, parseParams } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import { platformOfClient } from '../platforms/service.js';
import { findArtefactsOfAccount } from './repository.js';

/** What a stored provider session says of the platforms it signed in: their session ids. */
const storedSession = z.object({
  authorizations: z.record(z.string(), z.object({ sid: z.string().optional() })).optional(),
});

/**
 * Queues a back-channel logout notice for each platform the account's provider sessions signed
 * in that takes them — in the caller's transaction, before the sessions are deleted. Each is
 * audited there (no actor: the event that ended the sessions, in the same request, names it).
 */
export async function queuePlatformLogouts(
  ctx: Pick<AppContext, 'clock'>,
  trx: Db,
  accountId: string,
  /** Only this platform's sessions (a person removing one platform's access). */
  onlyClientId?: string,
): Promise<void> {
  const told = new Set<string>();
  for (const payload of await findArtefactsOfAccount(trx, accountId, 'Session')) {
    const parsed = storedSession.safeParse(JSON.parse(payload));
    const authorizations = parsed.success ? (parsed.data.authorizations ?? {}) : {};
    for (const [clientId, { sid }] of Object.entries(authorizations)) {
      if (onlyClientId !== undefined && clientId !== onlyClientId) continue;
      if (!sid || told.has(`${clientId} ${sid}`)) continue;
      const platform = await platformOfClient({ db: trx }, clientId);
      if (!platform?.backchannel_logout_uri) continue;
      told.add(`${clientId} ${sid}`);
      await enqueuePlatformLogout(trx, ctx.clock, { clientId, sub: accountId, sid });
      await recordAudit(trx, ctx.clock, {
        action: 'backchannel_logout_queued',
        targetId: accountId,
        details: { clientId },
      });
    }
  }
}

const noticeParams = z.object({ sub: z.string(), sid: z.string() });

/**
 * Sends the outbox's back-channel logout notices through the provider (its signed logout token,
 * POSTed to the platform's URI). The provider is attached once the OIDC routes have built it;
 * until then, and for a platform gone or no longer taking notices, nothing is sent.
 */
export class PlatformLogoutSender implements NoticeSender {
  readonly name = 'back-channel logout';
  private provider: Provider | undefined;
  private ctx: Pick<AppContext, 'db' | 'clock'> | undefined;

  attach(provider: Provider, ctx: Pick<AppContext, 'db' | 'clock'>): void {
    this.provider = provider;
    this.ctx = ctx;
  }

  async send(row: OutboxRow, signal: AbortSignal): Promise<void> {
    if (!this.provider) throw new Error('the OpenID provider is not started');
    const { sub, sid } = noticeParams.parse(parseParams(row.params));
    const client: unknown = await this.provider.Client.find(row.recipient);
    if (!takesLogoutNotices(client) || signal.aborted) return;
    await client.backchannelLogout(sub, sid);
    await this.audit('backchannel_logout_sent', row, sub);
  }

  /** The outbox stopped trying (too many failures, or too late): audited with its last state. */
  async gaveUp(row: OutboxRow, status: 'failed' | 'expired'): Promise<void> {
    const { sub } = noticeParams.parse(parseParams(row.params));
    await this.audit('backchannel_logout_failed', row, sub, { status });
  }

  private async audit(
    action: 'backchannel_logout_sent' | 'backchannel_logout_failed',
    row: OutboxRow,
    accountId: string,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    if (!this.ctx) return;
    await recordAudit(this.ctx.db, this.ctx.clock, {
      action,
      targetId: accountId,
      details: { clientId: row.recipient, ...details },
    });
  }
}

/** A provider client with a back-channel logout URI (the method is the library's, untyped). */
interface NotifiableClient {
  backchannelLogoutUri: string;
  backchannelLogout(sub: string, sid: string): Promise<void>;
}

function takesLogoutNotices(client: unknown): client is NotifiableClient {
  return (
    typeof client === 'object' &&
    client !== null &&
    'backchannelLogoutUri' in client &&
    typeof client.backchannelLogoutUri === 'string' &&
    'backchannelLogout' in client &&
    typeof client.backchannelLogout === 'function'
  );
}
