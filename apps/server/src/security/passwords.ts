import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id of @node-rs/argon2 (an ambient const enum, not importable as a value here).
const ARGON2ID = 2;

export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Verifies against the hash, or against a dummy hash when there is none (same cost). */
  verify(encoded: string | null, password: string): Promise<boolean>;
  /** True when the hash was made with other parameters than the configured ones. */
  needsRehash(encoded: string): boolean;
}

/**
 * argon2id through @node-rs/argon2: the work runs on libuv's thread pool, off the event loop.
 * Passwords are NFKC-normalised by the caller (domain rule) before they reach here.
 */
export async function createPasswordHasher(params: Argon2Params): Promise<PasswordHasher> {
  const options = { ...params, algorithm: ARGON2ID, outputLen: 32 };
  // Unknown users are checked against this, so they cost as much as known ones.
  const dummy = await hash('dummy-password-for-unknown-users', options);
  return {
    hash: (password) => hash(password, options),
    async verify(encoded, password) {
      try {
        const ok = await verify(encoded ?? dummy, password);
        return encoded !== null && ok;
      } catch {
        return false;
      }
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
