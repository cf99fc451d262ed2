import { AppError } from '../lib/app-error.js';
import { currentRequestScope } from '../lib/request-scope.js';
import type { Admission, HashPool } from './hash-pool.js';

export type { Admission } from './hash-pool.js';

// Algorithm.Argon2id of @node-rs/argon2 (an ambient const enum, not importable as a value here).
const ARGON2ID = 2;

export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * Verifies against the hash, or against a dummy hash when there is none (same cost); as the
   * hash of the password step `admission` let in, when one was.
   */
  verify(encoded: string | null, password: string, admission?: Admission): Promise<boolean>;
  /**
   * Waits for the current client's turn to begin a password step (its reads, then `verify`
   * with the admission): HashPool.admit. Release it when the step ends (its hash starting
   * releases it too).
   */
  admit(): Promise<Admission>;
  /** True when the hash was made with other parameters than the configured ones. */
  needsRehash(encoded: string): boolean;
}

/**
 * argon2id through @node-rs/argon2, on the process's hashing pool (security/hash-pool.ts): worker
 * threads sized to the cores, below the event loop's priority, each client's jobs served in turn.
 * Passwords are NFKC-normalised by the caller (domain rule) before they reach here.
 */
export async function createPasswordHasher(
  params: Argon2Params,
  pool: HashPool,
): Promise<PasswordHasher> {
  const options = { ...params, algorithm: ARGON2ID, outputLen: 32 };
  // Whose work it is: the pool serves each client's queue in turn (the process's own: '').
  const client = () => currentRequestScope()?.client ?? '';
  const hash = async (password: string): Promise<string> => {
    const encoded = await pool.run({ op: 'hash', password, options }, client());
    if (typeof encoded !== 'string') throw new Error('argon2 hash: no encoded hash');
    return encoded;
  };
  // Unknown users are checked against this, so they cost as much as known ones.
  const dummy = await hash('dummy-password-for-unknown-users');
  return {
    hash,
    admit: () => pool.admit(client()),
    async verify(encoded, password, admission) {
      let ok: string | boolean;
      try {
        ok = await pool.run(
          { op: 'verify', encoded: encoded ?? dummy, password },
          client(),
          admission,
        );
      } catch (err) {
        // A full queue is the client's to retry (503); a malformed stored hash is a refusal.
        if (err instanceof AppError) throw err;
        return false;
      }
      return encoded !== null && ok === true;
    },
    needsRehash(encoded) {
      const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(encoded);
      return (
        !m ||
        Number(m[1]) !== params.memoryCost ||
        Number(m[2]) !== params.timeCost ||
        Number(m[3]) !== params.parallelism
      );
    },
  };
}
