import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Forward-only. The terms of use live on the server, per version and language, each text with the
// SHA-256 of its canonical form; an acceptance keeps the hash and the language of the text accepted.
// Until now publishing only changed a number and every version showed the text compiled into the
// web client: that text becomes the stored text of the version in force (and of 2026-01).

/** The text the web client carried, section by section (title, body), in each language. */
const INITIAL_TEXT: Record<'fr' | 'en' | 'ar', { title: string; body: string }[]> = {
  fr: [
    {
      title: 'Objet',
      body: 'Hygie est le portail qui vous permet de créer votre compte, de vous connecter et d’accéder en toute sécurité aux services de santé en ligne partenaires. Les présentes conditions encadrent l’utilisation du portail par les patients et par les professionnels de santé.',
    },
    {
      title: 'Votre compte',
      body: 'Vous vous engagez à fournir des informations exactes sur votre identité et à les tenir à jour. Votre compte est strictement personnel. Le compte d’un professionnel de santé n’est activé qu’après la vérification de son identité et de son identifiant professionnel.',
    },
    {
      title: 'Sécurité de l’accès',
      body: 'Gardez secrets votre mot de passe et les codes reçus par e-mail ou par SMS : personne, pas même le support, ne vous les demandera. Si vous remarquez une connexion que vous ne reconnaissez pas, verrouillez votre compte grâce au lien reçu par e-mail, puis contactez le support.',
    },
    {
      title: 'Données personnelles',
      body: 'Vos données sont traitées pour vous identifier et sécuriser votre accès aux services de santé, conformément au Règlement général sur la protection des données (RGPD) et à la loi Informatique et Libertés. Elles ne sont transmises qu’aux services auxquels vous choisissez d’accéder et ne sont jamais utilisées à des fins commerciales. Vous pouvez exercer vos droits d’accès, de rectification, d’effacement et d’opposition auprès du délégué à la protection des données.',
    },
    {
      title: 'Urgences et avis médical',
      body: 'Le portail ne fournit ni soins ni avis médical. En cas d’urgence, appelez le 15 (SAMU) ou le 112.',
    },
    {
      title: 'Disponibilité',
      body: 'Nous faisons notre possible pour que le portail soit accessible en permanence. Il peut toutefois être momentanément interrompu pour maintenance ou en cas d’incident.',
    },
    {
      title: 'Évolution des conditions',
      body: 'Ces conditions peuvent évoluer. Chaque nouvelle version vous est présentée à votre connexion suivante et doit être acceptée pour continuer à utiliser le portail. Vous pouvez à tout moment cesser d’utiliser le portail et demander la fermeture de votre compte au support.',
    },
  ],
  en: [
    {
      title: 'Purpose',
      body: 'Hygie is the portal that lets you create your account, sign in and securely reach the partner online health services. These terms govern the use of the portal by patients and by health professionals.',
    },
    {
      title: 'Your account',
      body: "You agree to give accurate information about your identity and to keep it up to date. Your account is strictly personal. A health professional's account is activated only after their identity and professional identifier have been verified.",
    },
    {
      title: 'Access security',
      body: 'Keep your password and the codes you receive by email or text message secret: no one, not even support, will ever ask you for them. If you notice a sign-in you do not recognise, lock your account with the link received by email, then contact support.',
    },
    {
      title: 'Personal data',
      body: 'Your data is processed to identify you and to secure your access to health services, in accordance with the General Data Protection Regulation (GDPR) and the French Data Protection Act. It is shared only with the services you choose to use and is never used for commercial purposes. You may exercise your rights of access, rectification, erasure and objection with the data protection officer.',
    },
    {
      title: 'Emergencies and medical advice',
      body: 'The portal provides neither care nor medical advice. In an emergency, call 15 (SAMU) or 112.',
    },
    {
      title: 'Availability',
      body: 'We do our best to keep the portal available at all times. It may however be briefly interrupted for maintenance or in case of an incident.',
    },
    {
      title: 'Changes to the terms',
      body: 'These terms may change. Each new version is shown to you at your next sign-in and must be accepted to keep using the portal. You may stop using the portal at any time and ask support to close your account.',
    },
  ],
  ar: [
    {
      title: 'الغرض',
      body: 'Hygie هي البوابة التي تتيح لك إنشاء حسابك وتسجيل الدخول والوصول بأمان إلى خدمات الصحة الإلكترونية الشريكة. تنظّم هذه الشروط استخدام البوابة من قبل المرضى ومهنيي الصحة.',
    },
    {
      title: 'حسابك',
      body: 'تلتزم بتقديم معلومات صحيحة عن هويتك وتحديثها. حسابك شخصي تمامًا. لا يُفعَّل حساب المهني الصحي إلا بعد التحقق من هويته ومن معرّفه المهني.',
    },
    {
      title: 'أمان الوصول',
      body: 'احتفظ بسرية كلمة المرور والرموز التي تصلك عبر البريد الإلكتروني أو الرسائل النصية: لن يطلبها منك أحد، ولا حتى فريق الدعم. إذا لاحظت تسجيل دخول لا تعرفه، فاقفل حسابك بالرابط الذي وصلك عبر البريد الإلكتروني، ثم تواصل مع الدعم.',
    },
    {
      title: 'البيانات الشخصية',
      body: 'تُعالَج بياناتك لتحديد هويتك وتأمين وصولك إلى الخدمات الصحية، وفقًا للائحة العامة لحماية البيانات (RGPD) والقانون الفرنسي للمعلوماتية والحريات. لا تُرسَل إلا إلى الخدمات التي تختار استخدامها، ولا تُستخدم أبدًا لأغراض تجارية. يمكنك ممارسة حقوقك في الاطلاع والتصحيح والمحو والاعتراض لدى مسؤول حماية البيانات.',
    },
    {
      title: 'الحالات الطارئة والاستشارة الطبية',
      body: 'لا تقدّم البوابة علاجًا ولا استشارة طبية. في حالة الطوارئ، اتصل بالرقم 15 (SAMU) أو 112.',
    },
    {
      title: 'التوفر',
      body: 'نبذل قصارى جهدنا لتبقى البوابة متاحة في كل الأوقات، لكنها قد تتوقف مؤقتًا للصيانة أو بسبب عطل.',
    },
    {
      title: 'تعديل الشروط',
      body: 'قد تتغير هذه الشروط. يُعرض عليك كل إصدار جديد عند تسجيل دخولك التالي، ويجب أن توافق عليه لمواصلة استخدام البوابة. يمكنك في أي وقت التوقف عن استخدام البوابة وطلب إغلاق حسابك من فريق الدعم.',
    },
  ],
};

/** Must match modules/terms/service.ts `termsHash` (terms.test.ts checks the stored hashes). */
function hashOf(version: string, language: string, sections: unknown): string {
  return createHash('sha256').update(JSON.stringify({ version, language, sections })).digest('hex');
}

async function storedSetting(db: Kysely<unknown>, key: string): Promise<string | null> {
  const { rows } = await sql<{
    value: string;
  }>`select value from settings where key = ${key}`.execute(db);
  const stored = rows[0]?.value;
  if (stored === undefined) return null;
  try {
    const value: unknown = JSON.parse(stored);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('terms_texts')
    .addColumn('version', 'varchar(40)', (c) => c.notNull())
    .addColumn('language', 'varchar(2)', (c) => c.notNull())
    .addColumn('sections', 'text', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('effective_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('published_by', 'varchar(36)')
    .addPrimaryKeyConstraint('terms_texts_pk', ['version', 'language'])
    .execute();
  await db.schema.alterTable('consents').addColumn('text_hash', 'varchar(64)').execute();
  await db.schema.alterTable('consents').addColumn('language', 'varchar(2)').execute();

  const inForce = (await storedSetting(db, 'CGU_VERSION')) ?? '2026-01';
  const date = (await storedSetting(db, 'CGU_PUBLISHED_AT')) ?? '2026-01-01';
  const versions = new Map([
    ['2026-01', '2026-01-01'],
    [inForce, date],
  ]);
  const now = Date.now();
  for (const [version, effective] of versions) {
    for (const [language, sections] of Object.entries(INITIAL_TEXT)) {
      await sql`
        insert into terms_texts (version, language, sections, hash, effective_date, published_at)
        values (${version}, ${language}, ${JSON.stringify(sections)},
          ${hashOf(version, language, sections)}, ${effective}, ${now})
      `.execute(db);
    }
  }
}
