import { createHash } from 'node:crypto';
import type {
  AdminCguVersionList,
  AdminCguVersionTexts,
  cguStatusSchema,
  cguTextSchema,
  CguPublishInput,
  Language,
} from '@hygie/domain';
import { asLanguage, DEFAULT_LANGUAGE, LANGUAGES } from '@hygie/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { together, transaction } from '../../db/transaction.js';
import type { TermsTextTable } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import type { Progress, ProgressContext } from '../auth/service.js';
import { finishStage, termsStage } from '../auth/service.js';
import { loadSettings, saveSetting, todayIn } from '../settings/service.js';
import { findUserById } from '../users/service.js';
import { findTermsText, findTermsTexts, insertTermsTexts, listTermsTexts } from './repository.js';

type CguText = z.infer<typeof cguTextSchema>;
type CguStatus = z.infer<typeof cguStatusSchema>;
type Section = CguText['sections'][number];

/**
 * The SHA-256 of a version's text in a language (its canonical JSON form): what an acceptance
 * names, so the text a user accepted can be shown again and proved unchanged.
 */
export function termsHash(version: string, language: string, sections: Section[]): string {
  return createHash('sha256').update(JSON.stringify({ version, language, sections })).digest('hex');
}

const storedSections = z.array(z.object({ title: z.string(), body: z.string() }));

function present(row: TermsTextTable): CguText {
  return {
    version: row.version,
    publishedAt: row.effective_date,
    language: asLanguage(row.language) ?? DEFAULT_LANGUAGE,
    sections: storedSections.parse(JSON.parse(row.sections)),
    hash: row.hash,
  };
}

/** The text of a version in a language; 404 for a version never published. */
export async function termsOfVersion(
  ctx: AppContext,
  version: string,
  language: Language,
): Promise<CguText> {
  const row = await findTermsText(ctx.db, version, language);
  if (!row) throw new AppError('not_found');
  return present(row);
}

/** The terms in force, in a language (every version is published in every language). */
export async function termsInForce(ctx: AppContext, db: Db, language: Language): Promise<CguText> {
  const { CGU_VERSION } = await loadSettings(ctx, db);
  const row = await findTermsText(db, CGU_VERSION, language);
  if (!row) throw new Error(`terms version ${CGU_VERSION} has no ${language} text`);
  return present(row);
}

/** The terms in force in a language, and the version this user accepted (null when anonymous). */
export async function termsStatus(
  ctx: AppContext,
  userId: string | null,
  language: Language,
): Promise<CguStatus> {
  // Read together, in one write to the database (db/transaction.ts `together`).
  const [terms, user] = await together(ctx.db, (db) =>
    Promise.all([termsInForce(ctx, db, language), userId ? findUserById(db, userId) : undefined]),
  );
  return { ...terms, acceptedVersion: user?.cgu_version ?? null };
}

/**
 * The text in force that a person read, by its version and hash (in any language it is published
 * in), read in the caller's transaction: `terms_changed` when another version is in force, or the
 * text is not the one in force (the page showed a text since replaced).
 */
export async function termsReadInForce(
  ctx: AppContext,
  db: Db,
  read: { version: string; hash: string },
): Promise<{ version: string; hash: string; language: string }> {
  const { CGU_VERSION } = await loadSettings(ctx, db);
  const texts = read.version === CGU_VERSION ? await findTermsTexts(db, CGU_VERSION) : [];
  const text = texts.find((row) => row.hash === read.hash);
  if (!text) throw new AppError('terms_changed');
  return { version: text.version, hash: text.hash, language: text.language };
}

/**
 * Every published version (admin): its effective date, when and by whom it was published, the
 * hash of each language's text, which one is in force and which one is scheduled.
 */
export async function listTermsVersions(ctx: AppContext): Promise<AdminCguVersionList> {
  const [rows, { CGU_VERSION, CGU_NEXT_VERSION }] = await Promise.all([
    listTermsTexts(ctx.db),
    loadSettings(ctx),
  ]);
  const publishers = new Map<string, { id: string; email: string } | null>();
  for (const row of rows) {
    if (row.published_by && !publishers.has(row.published_by)) {
      const user = await findUserById(ctx.db, row.published_by);
      publishers.set(row.published_by, user ? { id: user.id, email: user.email } : null);
    }
  }
  const versions = new Map<string, AdminCguVersionList['versions'][number]>();
  for (const row of rows) {
    const entry = versions.get(row.version) ?? {
      version: row.version,
      effectiveDate: row.effective_date,
      publishedAt: new Date(row.published_at).toISOString(),
      publishedBy: row.published_by ? (publishers.get(row.published_by) ?? null) : null,
      hashes: { fr: '', en: '', ar: '' },
      inForce: row.version === CGU_VERSION,
      scheduled: row.version === CGU_NEXT_VERSION,
    };
    const language = asLanguage(row.language);
    if (language) entry.hashes[language] = row.hash;
    versions.set(row.version, entry);
  }
  return { versions: [...versions.values()] };
}

/** A published version's text in every language (admin: to start a new version from); 404 unknown. */
export async function termsTextsOfVersion(
  ctx: AppContext,
  version: string,
): Promise<AdminCguVersionTexts> {
  const rows = await findTermsTexts(ctx.db, version);
  const text = (language: Language) => {
    const row = rows.find((candidate) => candidate.language === language);
    if (!row) throw new AppError('not_found');
    return present(row);
  };
  const fr = text('fr');
  return {
    version,
    effectiveDate: fr.publishedAt,
    texts: { fr: fr.sections, en: text('en').sections, ar: text('ar').sections },
  };
}

/**
 * Accepts the terms in force: the version and the hash of the exact text the user read (in any
 * language it is published in). Kept with when, from where and which language; moves the session on.
 */
export async function acceptTerms(
  ctx: AppContext,
  session: { id: string; userId: string },
  accepted: { version: string; hash: string },
  request: ProgressContext,
): Promise<Progress> {
  // The page showed another version, or another text, than the one in force: show it again.
  const read = await termsReadInForce(ctx, ctx.db, accepted);
  const { progress } = await finishStage(
    ctx,
    { ...request, userId: session.userId, sessionId: session.id },
    termsStage,
    { version: read.version, hash: read.hash, language: read.language },
  );
  return progress;
}

/**
 * Publishes a new terms version with its text in every language, effective `publishedAt` (today in
 * TIME_ZONE unless given; never before the date of the version in force: `terms_date_too_early`),
 * in one transaction. Effective today or earlier, it is in force at once (every user accepts it at
 * the next sign-in); effective later, it is scheduled and read as the version in force from that
 * day on (`loadSettings`). Either way it replaces a version still waiting for its date (that one
 * stays listed, never in force). A version is published once: again is `terms_version_exists`.
 */
export async function publishTerms(
  ctx: Pick<AppContext, 'db' | 'clock' | 'config'>,
  terms: CguPublishInput,
  /** The admin who publishes, and from where (null for the command line). */
  by: { userId: string; ip: string | null } | null,
): Promise<{
  version: string;
  publishedAt: string;
  scheduled: boolean;
  hashes: Record<Language, string>;
}> {
  const now = ctx.clock.now();
  const today = todayIn(ctx);
  const publishedAt = terms.publishedAt ?? today;
  const scheduled = publishedAt > today;
  const hashOf = (language: Language) => termsHash(terms.version, language, terms.texts[language]);
  const hashes = { fr: hashOf('fr'), en: hashOf('en'), ar: hashOf('ar') };
  const rows = LANGUAGES.map((language) => ({
    version: terms.version,
    language,
    sections: JSON.stringify(terms.texts[language]),
    hash: hashes[language],
    effective_date: publishedAt,
    published_at: now,
    published_by: by?.userId ?? null,
  }));
  const actor = by?.userId ?? null;
  try {
    await transaction(ctx.db, async (trx) => {
      // What is in force today: a scheduled version whose date has come is written down as such.
      const current = await loadSettings(ctx, trx);
      if (publishedAt < current.CGU_PUBLISHED_AT) throw new AppError('terms_date_too_early');
      await insertTermsTexts(trx, rows);
      const [inForce, inForceAt] = scheduled
        ? [current.CGU_VERSION, current.CGU_PUBLISHED_AT]
        : [terms.version, publishedAt];
      await saveSetting(trx, 'CGU_VERSION', inForce, actor, now);
      await saveSetting(trx, 'CGU_PUBLISHED_AT', inForceAt, actor, now);
      await saveSetting(trx, 'CGU_NEXT_VERSION', scheduled ? terms.version : null, actor, now);
      await saveSetting(trx, 'CGU_NEXT_AT', scheduled ? publishedAt : null, actor, now);
      await recordAudit(trx, ctx.clock, {
        action: 'terms_published',
        actorId: actor,
        ip: by?.ip ?? null,
        details: {
          version: terms.version,
          publishedAt,
          ...(scheduled ? { scheduled: true } : {}),
          // The version that was waiting for its date, and no longer will be in force.
          ...(current.CGU_NEXT_VERSION ? { replacesScheduled: current.CGU_NEXT_VERSION } : {}),
        },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'terms_texts_pk')) throw new AppError('terms_version_exists');
    throw err;
  }
  return { version: terms.version, publishedAt, scheduled, hashes };
}
