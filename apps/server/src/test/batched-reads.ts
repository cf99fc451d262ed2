import { CompiledQuery } from 'kysely';

/** `$1, …, $n`: the parameters of a batched read's statement for `arity` keys (db/connection.ts). */
export const placeholders = (arity: number): string =>
  Array.from({ length: arity }, (_, i) => `$${i + 1}`).join(', ');

/** A batched read's statement that answers each key with itself. */
export const echo = (arity: number): CompiledQuery<{ k: string }> =>
  CompiledQuery.raw(`select k from unnest(array[${placeholders(arity)}]::text[]) as k`, []);
