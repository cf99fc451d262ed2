import type { Db } from '../../db/connection.js';
import type { TermsTextTable } from '../../db/schema.js';

/** The text of a terms version in a language. */
export function findTermsText(
  db: Db,
  version: string,
  language: string,
): Promise<TermsTextTable | undefined> {
  return db
    .selectFrom('terms_texts')
    .selectAll()
    .where('version', '=', version)
    .where('language', '=', language)
    .executeTakeFirst();
}

/** Every language's text of a version. */
export function findTermsTexts(db: Db, version: string): Promise<TermsTextTable[]> {
  return db.selectFrom('terms_texts').selectAll().where('version', '=', version).execute();
}

/** Every published text without its sections (one row per version and language), newest first. */
export function listTermsTexts(db: Db): Promise<Omit<TermsTextTable, 'sections'>[]> {
  return db
    .selectFrom('terms_texts')
    .select(['version', 'language', 'hash', 'effective_date', 'published_at', 'published_by'])
    .orderBy('published_at', 'desc')
    .orderBy('version', 'desc')
    .execute();
}

/** Stores a version's texts; a version already stored is refused by the primary key. */
export async function insertTermsTexts(db: Db, rows: TermsTextTable[]): Promise<void> {
  await db.insertInto('terms_texts').values(rows).execute();
}
