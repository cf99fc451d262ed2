import { normalizeMobilePhone } from '@hygie/domain';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { normalizeSearch } from '../users/search-key.js';

// What the admin search's `q` is decides the index that orders its pages (docs/decisions.md,
// "Admin search"), and the cursor names a place in that order: the last row's sort key and id.

/** The admin search's query, read: which index orders its pages, and the values it looks for. */
export type SearchShape =
  | { kind: 'created' }
  /** With `@`: an e-mail prefix. */
  | { kind: 'email'; email: string }
  /** Anything else: a name prefix ("last first", normalised), else an e-mail prefix. */
  | { kind: 'text'; name: string; email: string }
  /** Digits (a phone number, an INS, a professional identifier): exact matches. */
  | { kind: 'identifier'; compact: string; phone: string | null };

/** A place in one of the orders: the last row shown. */
export type SearchCursor =
  | { kind: 'created'; after: { key: number; id: string } }
  | { kind: 'name' | 'email' | 'phone'; after: { key: string; id: string } };

/** An INS (15, or 13 without its key; Corsica's 2A/2B), a professional id, a phone number. */
const IDENTIFIER = /^\+?\d[\dAB]{4,}$/i;

export function searchShape(q: string): SearchShape {
  if (q === '') return { kind: 'created' };
  const email = q.toLowerCase();
  if (q.includes('@')) return { kind: 'email', email };
  const compact = q.replace(/[\s.()-]/g, '');
  if (IDENTIFIER.test(compact)) {
    return { kind: 'identifier', compact: q.replace(/\s+/g, ''), phone: normalizeMobilePhone(q) };
  }
  return { kind: 'text', name: normalizeSearch(q), email };
}

const END = '\uffff';
const cursorSchema = z.union([
  z.tuple([z.literal('created'), z.number().int().min(0), z.string().min(1).max(64)]),
  z.tuple([z.enum(['name', 'email', 'phone']), z.string().max(300), z.string().max(64)]),
]);

export function encodeCursor(cursor: SearchCursor): string {
  return Buffer.from(
    JSON.stringify([cursor.kind, cursor.after.key, cursor.after.id]),
    'utf8',
  ).toString('base64url');
}

function parse(value: string): SearchCursor | undefined {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = cursorSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const [kind, key, id] = parsed.data;
  return typeof key === 'number'
    ? { kind: 'created', after: { key, id } }
    : kind === 'created'
      ? undefined
      : { kind, after: { key, id } };
}

function startsWith(key: string, prefix: string): boolean {
  return key >= prefix && key < prefix + END;
}

/** Whether the cursor is a place in this query's order (from a page of the same search). */
function fits(cursor: SearchCursor, shape: SearchShape): boolean {
  switch (shape.kind) {
    case 'created':
      return cursor.kind === 'created';
    case 'email':
      return cursor.kind === 'email' && startsWith(cursor.after.key, shape.email);
    case 'text':
      return (
        (cursor.kind === 'name' && startsWith(cursor.after.key, shape.name)) ||
        (cursor.kind === 'email' && startsWith(cursor.after.key, shape.email))
      );
    case 'identifier':
      return cursor.kind === 'phone' && cursor.after.key === shape.phone;
  }
}

/** The cursor of a page of this search; `invalid_cursor` (400) for any other string. */
export function decodeCursor(value: string, shape: SearchShape): SearchCursor {
  const cursor = parse(value);
  if (cursor === undefined || !fits(cursor, shape)) throw new AppError('invalid_cursor');
  return cursor;
}
