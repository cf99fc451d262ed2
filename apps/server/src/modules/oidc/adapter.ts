import type { Adapter, AdapterPayload } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Db } from '../../db/connection.js';
import { platformOfClient } from '../platforms/service.js';
import { clientMetadataOf } from './client-metadata.js';
import type { StoredArtefact } from './repository.js';
import {
  deleteArtefact,
  deleteArtefactsOfAccount,
  deleteArtefactsOfGrant,
  deleteExpiredArtefacts,
  findArtefact,
  findArtefactBy,
  consumedAtOfArtefact,
  grantIdOfArtefact,
  markArtefactConsumed,
  upsertArtefact,
} from './repository.js';

// Models whose rows belong to a grant: a replayed code or refresh token revokes all of them.
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

/**
 * The provider's time is the system's (it stamps `iat`/`exp` with Date.now()), so expiry here is
 * too — never the app clock tests move.
 */
const now = () => Date.now();

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 255) : null;
}

/**
 * oidc-provider's storage on the portal's database (`oidc_store`, one row per artefact), shared by
 * every node. Rows past their expiry are invisible and purged by `purgeExpired`. The repository
 * stores each row under a keyed hash of its id with its payload sealed (no token in a dump).
 */
export class KyselyAdapter implements Adapter {
  /**
   * Refresh tokens only: how long after its rotation a refresh token may still be presented. Two
   * tabs of one single-page app refresh at once with the same token; both get a new one. Presented
   * later, the old token is a reuse: refused, and the grant revoked.
   */
  private readonly reuseGraceMs: number;

  constructor(
    private readonly db: Db,
    private readonly model: string,
    options: { refreshReuseGraceMs?: number } = {},
  ) {
    this.reuseGraceMs = model === 'RefreshToken' ? (options.refreshReuseGraceMs ?? 0) : 0;
  }

  /** Whether a consumption at `consumedAt` is still within the reuse grace. */
  private withinGrace(consumedAt: number | null): boolean {
    return consumedAt !== null && now() - consumedAt < this.reuseGraceMs;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const row = {
      payload: JSON.stringify(payload),
      grant_id: stringOrNull(payload.grantId),
      user_code: stringOrNull(payload.userCode),
      uid: stringOrNull(payload.uid),
      account_id: stringOrNull(payload.accountId),
      expires_at: expiresIn > 0 ? now() + expiresIn * 1000 : null,
    };
    await upsertArtefact(this.db, id, this.model, row);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.present(await findArtefact(this.db, id, this.model));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.present(await findArtefactBy(this.db, this.model, 'uid', uid));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.present(await findArtefactBy(this.db, this.model, 'user_code', userCode));
  }

  /**
   * Marks a code or refresh token used — one conditional UPDATE, so of two concurrent exchanges of
   * the same code exactly one gets tokens; the other is refused and the grant revoked, as a replay.
   */
  async consume(id: string): Promise<void> {
    if (await markArtefactConsumed(this.db, id, this.model, now())) return;
    // A parallel refresh with the same token, within the grace: not a reuse.
    if (this.withinGrace(await consumedAtOfArtefact(this.db, id, this.model))) return;
    const grantId = await grantIdOfArtefact(this.db, id, this.model);
    if (grantId) await this.revokeByGrantId(grantId);
    throw new errors.InvalidGrant('grant already used');
  }

  async destroy(id: string): Promise<void> {
    await deleteArtefact(this.db, id, this.model);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await deleteArtefactsOfGrant(this.db, grantId, [...GRANTABLE]);
  }

  private present(row: StoredArtefact | undefined): AdapterPayload | undefined {
    if (!row || (row.expires_at !== null && row.expires_at <= now())) return undefined;
    // The row holds what the provider gave `upsert`: its own payload type, returned unchanged.
    // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- oidc-provider's AdapterPayload (its own, open-ended model state) has no schema to parse with; this is the JSON of a payload it gave `upsert`
    const payload = JSON.parse(row.payload) as AdapterPayload;
    // The provider expects `consumed` as epoch seconds.
    if (row.consumed_at !== null && !this.withinGrace(row.consumed_at)) {
      payload.consumed = Math.floor(row.consumed_at / 1000);
    }
    return payload;
  }
}

/** The Client model: platforms are the clients, read from the registry on every lookup. */
export class PlatformClientAdapter implements Adapter {
  constructor(private readonly db: Db) {}

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (id.length === 0 || id.length > 64) return undefined;
    const platform = await platformOfClient({ db: this.db }, id);
    return platform ? clientMetadataOf(platform) : undefined;
  }

  // Clients are managed through the registry (admin API, CLI), never by the provider.
  async upsert(): Promise<void> {}
  findByUid(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}

/** The adapter factory oidc-provider calls once per model. */
export function adapterFactory(db: Db, options: { refreshReuseGraceMs?: number } = {}) {
  return function OidcAdapter(model: string): Adapter {
    return model === 'Client'
      ? new PlatformClientAdapter(db)
      : new KyselyAdapter(db, model, options);
  };
}

/** Deletes artefacts past their expiry (any node may run it; it is idempotent). */
export async function purgeExpired(db: Db, at = now()): Promise<number> {
  return deleteExpiredArtefacts(db, at);
}

/** Ends a user's provider sessions on every node (portal sign-out). */
export async function deleteSessionsOfAccount(db: Db, accountId: string): Promise<void> {
  await deleteArtefactsOfAccount(db, accountId, 'Session');
}
