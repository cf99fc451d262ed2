import type { Brand, Language } from '@hygie/domain';
import { BRAND_COLORS, BRAND_NAMES, RTL_LANGUAGES } from '@hygie/domain';

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
  /** The short text an SMS carries. */
  sms: string;
}

type Params = Record<string, string>;
interface TemplateText {
  subject: (p: Params) => string;
  lines: (p: Params) => string[];
  sms: (p: Params) => string;
}

/**
 * What changed on an account (`account_changed`'s `change`), told to its owner: an admin's act, or
 * the owner's own deletion.
 */
const ACCOUNT_CHANGE_TEXT = {
  fr: {
    disabled:
      'Un administrateur a désactivé votre compte et fermé toutes vos sessions : vous ne pouvez plus vous connecter.',
    reopened: 'Un administrateur a rouvert votre compte : vous pouvez de nouveau vous connecter.',
    sessions_ended: 'Un administrateur a fermé toutes vos sessions : connectez-vous de nouveau.',
    admin_granted: 'Vous êtes désormais administrateur du portail.',
    admin_revoked: 'Vous n’êtes plus administrateur du portail.',
    deleted:
      'Un administrateur a supprimé votre compte et vos données personnelles. Le journal de sécurité garde la trace des opérations, sans vos données.',
    self_deleted:
      'Vous avez supprimé votre compte : vos données personnelles ont été effacées. Le journal de sécurité garde la trace des opérations, sans vos données.',
  },
  en: {
    disabled:
      'An administrator disabled your account and closed all your sessions: you can no longer sign in.',
    reopened: 'An administrator reopened your account: you can sign in again.',
    sessions_ended: 'An administrator closed all your sessions: sign in again.',
    admin_granted: 'You are now an administrator of the portal.',
    admin_revoked: 'You are no longer an administrator of the portal.',
    deleted:
      'An administrator deleted your account and your personal data. The security log keeps a record of the operations, without your data.',
    self_deleted:
      'You deleted your account: your personal data has been erased. The security log keeps a record of the operations, without your data.',
  },
  ar: {
    disabled: 'عطّل أحد المسؤولين حسابك وأغلق جميع جلساتك: لم يعد بإمكانك تسجيل الدخول.',
    reopened: 'أعاد أحد المسؤولين فتح حسابك: يمكنك تسجيل الدخول من جديد.',
    sessions_ended: 'أغلق أحد المسؤولين جميع جلساتك: سجّل الدخول من جديد.',
    admin_granted: 'أصبحت الآن مسؤولًا عن البوابة.',
    admin_revoked: 'لم تعد مسؤولًا عن البوابة.',
    deleted:
      'حذف أحد المسؤولين حسابك وبياناتك الشخصية. يحتفظ سجل الأمان بأثر العمليات دون بياناتك.',
    self_deleted:
      'لقد حذفت حسابك: تم محو بياناتك الشخصية. يحتفظ سجل الأمان بأثر العمليات دون بياناتك.',
  },
} as const;

export type AccountChange = keyof (typeof ACCOUNT_CHANGE_TEXT)['fr'];

function isAccountChange(change: string | undefined): change is AccountChange {
  return (
    change !== undefined && Object.prototype.hasOwnProperty.call(ACCOUNT_CHANGE_TEXT.fr, change)
  );
}

function accountChangeText(language: Language) {
  return (change: string | undefined) =>
    isAccountChange(change) ? ACCOUNT_CHANGE_TEXT[language][change] : '';
}

const ACCOUNT_CHANGES = {
  fr: accountChangeText('fr'),
  en: accountChangeText('en'),
  ar: accountChangeText('ar'),
};

const contactLine = {
  fr: (p: Params) => `Pour toute question, contactez ${ltr(p.contactEmail)}.`,
  en: (p: Params) => `For any question, contact ${ltr(p.contactEmail)}.`,
  ar: (p: Params) => `لأي سؤال، تواصل مع ${ltr(p.contactEmail)}.`,
};

/** Every template in every language; a template missing a language fails to type-check. */
const TEMPLATES = {
  verification_code: {
    fr: {
      subject: (p) => `${p.brand} : votre code de vérification`,
      lines: (p) => [
        'Bonjour,',
        `Votre code de vérification est : ${ltr(p.code)}`,
        'Il est valable 10 minutes. Ne le communiquez à personne.',
        p.link ? `Ou suivez ce lien : ${p.link}` : '',
        'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.',
      ],
      sms: (p) => `${p.brand} : votre code de vérification est ${p.code} (valable 10 min).`,
    },
    en: {
      subject: (p) => `${p.brand}: your verification code`,
      lines: (p) => [
        'Hello,',
        `Your verification code is: ${ltr(p.code)}`,
        'It is valid for 10 minutes. Do not share it with anyone.',
        p.link ? `Or follow this link: ${p.link}` : '',
        'If you did not ask for it, ignore this message.',
      ],
      sms: (p) => `${p.brand}: your verification code is ${p.code} (valid 10 min).`,
    },
    ar: {
      subject: (p) => `${p.brand}: رمز التحقق الخاص بك`,
      lines: (p) => [
        'مرحبًا،',
        `رمز التحقق الخاص بك هو: ${ltr(p.code)}`,
        'الرمز صالح لمدة 10 دقائق. لا تشاركه مع أي شخص.',
        p.link ? `أو اتبع هذا الرابط: ${p.link}` : '',
        'إذا لم تطلب هذا الرمز، تجاهل هذه الرسالة.',
      ],
      sms: (p) => `${p.brand}: رمز التحقق الخاص بك هو ${ltr(p.code)} (صالح 10 دقائق).`,
    },
  },
  mfa_code: {
    fr: {
      subject: (p) => `${p.brand} : votre code de connexion`,
      lines: (p) => [
        'Bonjour,',
        `Pour terminer votre connexion, saisissez le code : ${ltr(p.code)}`,
        'Il est valable 10 minutes. Ne le communiquez à personne, même à nos équipes.',
        'Si vous n’essayez pas de vous connecter, changez votre mot de passe.',
      ],
      sms: (p) =>
        `${p.brand} : code de connexion ${p.code} (valable 10 min). Ne le communiquez à personne.`,
    },
    en: {
      subject: (p) => `${p.brand}: your sign-in code`,
      lines: (p) => [
        'Hello,',
        `To finish signing in, enter the code: ${ltr(p.code)}`,
        'It is valid for 10 minutes. Never share it, not even with our staff.',
        'If you are not trying to sign in, change your password.',
      ],
      sms: (p) => `${p.brand}: sign-in code ${p.code} (valid 10 min). Never share it.`,
    },
    ar: {
      subject: (p) => `${p.brand}: رمز تسجيل الدخول`,
      lines: (p) => [
        'مرحبًا،',
        `لإتمام تسجيل الدخول، أدخل الرمز: ${ltr(p.code)}`,
        'الرمز صالح لمدة 10 دقائق. لا تشاركه مع أي أحد، ولا حتى مع فريقنا.',
        'إذا لم تكن تحاول تسجيل الدخول، غيّر كلمة المرور.',
      ],
      sms: (p) => `${p.brand}: رمز تسجيل الدخول ${ltr(p.code)} (صالح 10 دقائق). لا تشاركه.`,
    },
  },
  password_reset_code: {
    fr: {
      subject: (p) => `${p.brand} : réinitialisation de votre mot de passe`,
      lines: (p) => [
        'Bonjour,',
        `Pour choisir un nouveau mot de passe, saisissez le code : ${ltr(p.code)}`,
        'Il est valable 10 minutes.',
        'Si vous n’avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.',
      ],
      sms: (p) =>
        `${p.brand} : code de réinitialisation du mot de passe ${p.code} (valable 10 min).`,
    },
    en: {
      subject: (p) => `${p.brand}: resetting your password`,
      lines: (p) => [
        'Hello,',
        `To choose a new password, enter the code: ${ltr(p.code)}`,
        'It is valid for 10 minutes.',
        'If you did not ask for it, ignore this message: your password is unchanged.',
      ],
      sms: (p) => `${p.brand}: password reset code ${p.code} (valid 10 min).`,
    },
    ar: {
      subject: (p) => `${p.brand}: إعادة تعيين كلمة المرور`,
      lines: (p) => [
        'مرحبًا،',
        `لاختيار كلمة مرور جديدة، أدخل الرمز: ${ltr(p.code)}`,
        'الرمز صالح لمدة 10 دقائق.',
        'إذا لم تطلب ذلك، تجاهل هذه الرسالة: كلمة المرور لم تتغير.',
      ],
      sms: (p) => `${p.brand}: رمز إعادة تعيين كلمة المرور ${ltr(p.code)} (صالح 10 دقائق).`,
    },
  },
  sign_in_notice: {
    fr: {
      subject: (p) => `${p.brand} : nouvelle connexion à votre compte`,
      lines: (p) => [
        'Bonjour,',
        `Nouvelle connexion le ${ltr(p.date)} depuis ${ltr(p.device)} (adresse ${ltr(p.ip)}).`,
        'C’était vous ? Vous n’avez rien à faire.',
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : nouvelle connexion à votre compte. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: new sign-in to your account`,
      lines: (p) => [
        'Hello,',
        `New sign-in on ${ltr(p.date)} from ${ltr(p.device)} (address ${ltr(p.ip)}).`,
        'Was it you? Then there is nothing to do.',
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: new sign-in to your account. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تسجيل دخول جديد إلى حسابك`,
      lines: (p) => [
        'مرحبًا،',
        `تسجيل دخول جديد في ${ltr(p.date)} من ${ltr(p.device)} (العنوان ${ltr(p.ip)}).`,
        'هل كنت أنت؟ لا داعي لأي إجراء.',
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: تسجيل دخول جديد إلى حسابك. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
  first_login_invitation: {
    fr: {
      subject: (p) => `${p.brand} : votre compte vous attend`,
      lines: (p) => [
        'Bonjour,',
        'Un compte a été créé pour vous. Choisissez votre mot de passe en suivant ce lien (valable 7 jours) :',
        p.link ?? '',
      ],
      sms: (p) => `${p.brand} : votre compte vous attend : ${p.link}`,
    },
    en: {
      subject: (p) => `${p.brand}: your account is waiting for you`,
      lines: (p) => [
        'Hello,',
        'An account was created for you. Choose your password by following this link (valid 7 days):',
        p.link ?? '',
      ],
      sms: (p) => `${p.brand}: your account is waiting for you: ${p.link}`,
    },
    ar: {
      subject: (p) => `${p.brand}: حسابك في انتظارك`,
      lines: (p) => [
        'مرحبًا،',
        'تم إنشاء حساب لك. اختر كلمة المرور عبر هذا الرابط (صالح 7 أيام):',
        p.link ?? '',
      ],
      sms: (p) => `${p.brand}: حسابك في انتظارك: ${p.link}`,
    },
  },
  account_locked: {
    fr: {
      subject: (p) => `${p.brand} : votre compte est verrouillé`,
      lines: (p) => [
        'Bonjour,',
        'Votre compte a été verrouillé et toutes vos sessions ont été fermées.',
        `Pour le rouvrir, contactez ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) => `${p.brand} : votre compte est verrouillé. Contact : ${p.contactEmail}`,
    },
    en: {
      subject: (p) => `${p.brand}: your account is locked`,
      lines: (p) => [
        'Hello,',
        'Your account was locked and all your sessions were closed.',
        `To reopen it, contact ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) => `${p.brand}: your account is locked. Contact: ${p.contactEmail}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تم قفل حسابك`,
      lines: (p) => [
        'مرحبًا،',
        'تم قفل حسابك وإغلاق جميع جلساتك.',
        `لإعادة فتحه، تواصل مع ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) => `${p.brand}: تم قفل حسابك. للتواصل: ${ltr(p.contactEmail)}`,
    },
  },
  account_validated: {
    fr: {
      subject: (p) => `${p.brand} : votre compte est validé`,
      lines: (p) => [
        'Bonjour,',
        'Votre identité a été vérifiée : vous pouvez vous connecter.',
        p.loginUrl ?? '',
      ],
      sms: (p) => `${p.brand} : votre compte est validé. ${p.loginUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: your account is validated`,
      lines: (p) => [
        'Hello,',
        'Your identity was verified: you can now sign in.',
        p.loginUrl ?? '',
      ],
      sms: (p) => `${p.brand}: your account is validated. ${p.loginUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تم اعتماد حسابك`,
      lines: (p) => ['مرحبًا،', 'تم التحقق من هويتك: يمكنك الآن تسجيل الدخول.', p.loginUrl ?? ''],
      sms: (p) => `${p.brand}: تم اعتماد حسابك. ${p.loginUrl}`,
    },
  },
  account_rejected: {
    fr: {
      subject: (p) => `${p.brand} : votre demande de compte`,
      lines: (p) => [
        'Bonjour,',
        'Votre identité n’a pas pu être vérifiée et votre compte n’a pas été ouvert.',
        `Pour en savoir plus, contactez ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) => `${p.brand} : votre compte n’a pas été ouvert. Contact : ${p.contactEmail}`,
    },
    en: {
      subject: (p) => `${p.brand}: your account request`,
      lines: (p) => [
        'Hello,',
        'Your identity could not be verified and your account was not opened.',
        `To learn more, contact ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) => `${p.brand}: your account was not opened. Contact: ${p.contactEmail}`,
    },
    ar: {
      subject: (p) => `${p.brand}: طلب فتح حسابك`,
      lines: (p) => [
        'مرحبًا،',
        'تعذّر التحقق من هويتك ولم يتم فتح حسابك.',
        `لمزيد من المعلومات، تواصل مع ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) => `${p.brand}: لم يتم فتح حسابك. للتواصل: ${ltr(p.contactEmail)}`,
    },
  },
  account_changed: {
    fr: {
      subject: (p) => `${p.brand} : votre compte a été modifié`,
      lines: (p) => ['Bonjour,', ACCOUNT_CHANGES.fr(p.change), contactLine.fr(p)],
      sms: (p) => `${p.brand} : ${ACCOUNT_CHANGES.fr(p.change)}`,
    },
    en: {
      subject: (p) => `${p.brand}: your account was changed`,
      lines: (p) => ['Hello,', ACCOUNT_CHANGES.en(p.change), contactLine.en(p)],
      sms: (p) => `${p.brand}: ${ACCOUNT_CHANGES.en(p.change)}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تم تعديل حسابك`,
      lines: (p) => ['مرحبًا،', ACCOUNT_CHANGES.ar(p.change), contactLine.ar(p)],
      sms: (p) => `${p.brand}: ${ACCOUNT_CHANGES.ar(p.change)}`,
    },
  },
  password_reset_link: {
    fr: {
      subject: (p) => `${p.brand} : choisissez un nouveau mot de passe`,
      lines: (p) => [
        'Bonjour,',
        'Un administrateur vous invite à choisir un nouveau mot de passe. Suivez ce lien (valable 24 heures) :',
        p.link ?? '',
        'Votre mot de passe actuel reste valable tant que vous n’en avez pas choisi un autre.',
      ],
      sms: (p) => `${p.brand} : choisissez un nouveau mot de passe : ${p.link}`,
    },
    en: {
      subject: (p) => `${p.brand}: choose a new password`,
      lines: (p) => [
        'Hello,',
        'An administrator invites you to choose a new password. Follow this link (valid 24 hours):',
        p.link ?? '',
        'Your current password keeps working until you choose another one.',
      ],
      sms: (p) => `${p.brand}: choose a new password: ${p.link}`,
    },
    ar: {
      subject: (p) => `${p.brand}: اختر كلمة مرور جديدة`,
      lines: (p) => [
        'مرحبًا،',
        'يدعوك أحد المسؤولين إلى اختيار كلمة مرور جديدة. اتبع هذا الرابط (صالح 24 ساعة):',
        p.link ?? '',
        'تبقى كلمة مرورك الحالية صالحة إلى أن تختار كلمة أخرى.',
      ],
      sms: (p) => `${p.brand}: اختر كلمة مرور جديدة: ${p.link}`,
    },
  },
  identifier_in_use: {
    fr: {
      subject: (p) => `${p.brand} : votre demande de compte`,
      lines: (p) => [
        'Bonjour,',
        'Votre compte n’a pas été créé : l’identifiant de santé indiqué (INS ou numéro professionnel) est déjà celui d’un compte.',
        `S’il s’agit du vôtre, connectez-vous ou réinitialisez votre mot de passe : ${p.loginUrl}`,
        `Sinon, contactez ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) =>
        `${p.brand} : compte non créé, identifiant déjà utilisé. Contact : ${p.contactEmail}`,
    },
    en: {
      subject: (p) => `${p.brand}: your account request`,
      lines: (p) => [
        'Hello,',
        'Your account was not created: the health identifier given (INS or professional number) already belongs to an account.',
        `If it is yours, sign in or reset your password: ${p.loginUrl}`,
        `Otherwise, contact ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) =>
        `${p.brand}: account not created, identifier already in use. Contact: ${p.contactEmail}`,
    },
    ar: {
      subject: (p) => `${p.brand}: طلب فتح حسابك`,
      lines: (p) => [
        'مرحبًا،',
        'لم يتم إنشاء حسابك: المعرّف الصحي المُدخل (INS أو الرقم المهني) مرتبط بحساب آخر.',
        `إذا كان حسابك، سجّل الدخول أو أعد تعيين كلمة المرور: ${p.loginUrl}`,
        `وإلا، تواصل مع ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) => `${p.brand}: لم يتم إنشاء الحساب، المعرّف مستخدم. للتواصل: ${ltr(p.contactEmail)}`,
    },
  },
  identifier_claimed: {
    fr: {
      subject: (p) => `${p.brand} : votre identifiant de santé a été saisi par quelqu’un d’autre`,
      lines: (p) => [
        'Bonjour,',
        `Le ${ltr(p.date)}, quelqu’un a indiqué votre identifiant de santé (INS ou numéro professionnel) pour un autre compte. Rien n’a été modifié sur le vôtre.`,
        `Si ce n’était pas vous, contactez ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) =>
        `${p.brand} : votre identifiant de santé a été saisi pour un autre compte. Contact : ${p.contactEmail}`,
    },
    en: {
      subject: (p) => `${p.brand}: someone else entered your health identifier`,
      lines: (p) => [
        'Hello,',
        `On ${ltr(p.date)}, someone gave your health identifier (INS or professional number) for another account. Nothing was changed on yours.`,
        `If it was not you, contact ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) =>
        `${p.brand}: your health identifier was entered for another account. Contact: ${p.contactEmail}`,
    },
    ar: {
      subject: (p) => `${p.brand}: أدخل شخص آخر معرّفك الصحي`,
      lines: (p) => [
        'مرحبًا،',
        `في ${ltr(p.date)}، أدخل شخص ما معرّفك الصحي (INS أو الرقم المهني) لحساب آخر. لم يتغيّر شيء في حسابك.`,
        `إذا لم تكن أنت، تواصل مع ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) => `${p.brand}: أُدخل معرّفك الصحي لحساب آخر. للتواصل: ${ltr(p.contactEmail)}`,
    },
  },
  password_changed: {
    fr: {
      subject: (p) => `${p.brand} : votre mot de passe a été modifié`,
      lines: (p) => [
        'Bonjour,',
        `Le mot de passe de votre compte a été modifié le ${ltr(p.date)}. Vos autres sessions et appareils de confiance ont été déconnectés.`,
        p.keys
          ? `Ces clés biométriques se connectent encore sans mot de passe : ${p.keys}. Retirez celles que vous ne reconnaissez pas dans « Mes appareils » : ${p.devicesUrl}`
          : '',
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : mot de passe modifié. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: your password was changed`,
      lines: (p) => [
        'Hello,',
        `Your account password was changed on ${ltr(p.date)}. Your other sessions and trusted devices were signed out.`,
        p.keys
          ? `These biometric keys still sign in without the password: ${p.keys}. Remove any you do not recognise in “My devices”: ${p.devicesUrl}`
          : '',
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: password changed. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تم تغيير كلمة المرور`,
      lines: (p) => [
        'مرحبًا،',
        `تم تغيير كلمة مرور حسابك في ${ltr(p.date)}. تم تسجيل الخروج من جلساتك وأجهزتك الموثوقة الأخرى.`,
        p.keys
          ? `هذه المفاتيح البيومترية لا تزال تسجّل الدخول دون كلمة المرور: ${p.keys}. أزل ما لا تعرفه منها في «أجهزتي»: ${p.devicesUrl}`
          : '',
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: تم تغيير كلمة المرور. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
  email_changed: {
    fr: {
      subject: (p) => `${p.brand} : l’adresse e-mail de votre compte a changé`,
      lines: (p) => [
        'Bonjour,',
        `L’adresse e-mail de votre compte a été remplacée par ${ltr(p.newEmail)} le ${ltr(p.date)}.`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : adresse e-mail modifiée. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: your account e-mail address changed`,
      lines: (p) => [
        'Hello,',
        `Your account e-mail address was replaced by ${ltr(p.newEmail)} on ${ltr(p.date)}.`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: e-mail address changed. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تم تغيير البريد الإلكتروني لحسابك`,
      lines: (p) => [
        'مرحبًا،',
        `تم استبدال البريد الإلكتروني لحسابك بـ ${ltr(p.newEmail)} في ${ltr(p.date)}.`,
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: تم تغيير البريد الإلكتروني. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
  phone_changed: {
    fr: {
      subject: (p) => `${p.brand} : le numéro de téléphone de votre compte a changé`,
      lines: (p) => [
        'Bonjour,',
        `Le numéro de téléphone mobile de votre compte a été remplacé par ${ltr(p.newPhone)} le ${ltr(p.date)}.`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : numéro de téléphone modifié. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: your account phone number changed`,
      lines: (p) => [
        'Hello,',
        `Your account mobile number was replaced by ${ltr(p.newPhone)} on ${ltr(p.date)}.`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: phone number changed. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تم تغيير رقم هاتف حسابك`,
      lines: (p) => [
        'مرحبًا،',
        `تم استبدال رقم الهاتف المحمول لحسابك بـ ${ltr(p.newPhone)} في ${ltr(p.date)}.`,
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: تم تغيير رقم الهاتف. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
  biometric_added: {
    fr: {
      subject: (p) => `${p.brand} : une connexion biométrique a été ajoutée`,
      lines: (p) => [
        'Bonjour,',
        `Une clé de connexion biométrique a été ajoutée à votre compte le ${ltr(p.date)} (${ltr(p.device)}).`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : connexion biométrique ajoutée. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: a biometric sign-in was added`,
      lines: (p) => [
        'Hello,',
        `A biometric sign-in key was added to your account on ${ltr(p.date)} (${ltr(p.device)}).`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: biometric sign-in added. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تمت إضافة تسجيل دخول بيومتري`,
      lines: (p) => [
        'مرحبًا،',
        `تمت إضافة مفتاح تسجيل دخول بيومتري إلى حسابك في ${ltr(p.date)} (${ltr(p.device)}).`,
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: تمت إضافة تسجيل دخول بيومتري. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
} satisfies Record<string, Record<Language, TemplateText>>;

export type TemplateName = keyof typeof TEMPLATES;

/** Parameters that grant something (a one-time code, a link carrying a token). */
const SECRET_PARAMS = ['code', 'link', 'lockUrl'];

/** The parameters without their secrets: what the outbox keeps once a message is settled. */
export function withoutSecrets(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      SECRET_PARAMS.includes(name) ? '[redacted]' : value,
    ]),
  );
}
export const TEMPLATE_NAMES: readonly TemplateName[] =
  Object.keys(TEMPLATES).filter(isTemplateName);

export function isTemplateName(name: string): name is TemplateName {
  return Object.prototype.hasOwnProperty.call(TEMPLATES, name);
}

// Codes, numbers and addresses stay left-to-right inside Arabic text.
const LTR_START = '\u2066';
const LTR_END = '\u2069';
function ltr(value: string | undefined): string {
  return `${LTR_START}${value ?? ''}${LTR_END}`;
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Parameters that carry text a user or their browser chose (a device name, a user agent). */
const USER_TEXT_PARAMS = ['device', 'keys'];

/**
 * Breaks what a mail client would turn into a link in user-chosen text: a scheme's `://` and the
 * dot before a letter in a host name (`https://evil.example/lock` → `https[:]//evil[.]example/lock`).
 * Version numbers (`Chrome 120.0`) are left alone.
 */
export function neutraliseLinks(text: string): string {
  return text.replace(/:\/\//g, '[:]//').replace(/(\w)\.(?=[a-z])/gi, '$1[.]');
}

/** Renders a template in a language and a brand. */
export function renderMessage(
  template: TemplateName,
  language: Language,
  brand: Brand,
  params: Params,
): RenderedMessage {
  const text: TemplateText = TEMPLATES[template][language];
  const userText = Object.fromEntries(
    USER_TEXT_PARAMS.filter((name) => params[name] !== undefined).map((name) => [
      name,
      neutraliseLinks(params[name] ?? ''),
    ]),
  );
  const all = { ...params, ...userText, brand: BRAND_NAMES[brand] };
  const lines = text.lines(all).filter((line) => line !== '');
  const dir = RTL_LANGUAGES.includes(language) ? 'rtl' : 'ltr';
  const colour = BRAND_COLORS[brand].primary;
  const body = lines
    .map((line) =>
      escapeHtml(line)
        .replaceAll(LTR_START, '<bdi dir="ltr"><strong>')
        .replaceAll(LTR_END, '</strong></bdi>'),
    )
    .map((line) =>
      line.replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}" dir="ltr">${url}</a>`),
    )
    .map((line) => `<p>${line}</p>`)
    .join('\n');
  const html = `<!doctype html>
<html lang="${language}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(text.subject(all))}</title></head>
<body style="font-family: Arial, sans-serif; color: #1a1a1a;">
<h1 style="color: ${colour}; font-size: 20px;">${escapeHtml(BRAND_NAMES[brand])}</h1>
${body}
</body></html>`;
  return {
    subject: text.subject(all),
    text: lines.join('\n\n').replaceAll(LTR_START, '').replaceAll(LTR_END, ''),
    html,
    sms: text.sms(all),
  };
}
