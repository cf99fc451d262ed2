import { v7 } from 'uuid';

/** Random, time-ordered identifier (UUIDv7) for every row. */
export function newId(): string {
  return v7();
}
