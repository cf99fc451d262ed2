import type { Brand, Language } from '@hygie/domain';
import type { Config } from '../config.js';
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
        `Il est valable ${p.validity}. Ne le communiquez à personne.`,
        p.link ? `Ou suivez ce lien : ${p.link}` : '',
        'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.',
      ],
      sms: (p) =>
        `${p.brand} : votre code de vérification est ${p.code} (valable ${p.validityShort}).`,
    },
    en: {
      subject: (p) => `${p.brand}: your verification code`,
      lines: (p) => [
        'Hello,',
        `Your verification code is: ${ltr(p.code)}`,
        `It is valid for ${p.validity}. Do not share it with anyone.`,
        p.link ? `Or follow this link: ${p.link}` : '',
        'If you did not ask for it, ignore this message.',
      ],
      sms: (p) => `${p.brand}: your verification code is ${p.code} (valid ${p.validityShort}).`,
    },
    ar: {
      subject: (p) => `${p.brand}: رمز التحقق الخاص بك`,
      lines: (p) => [
        'مرحبًا،',
        `رمز التحقق الخاص بك هو: ${ltr(p.code)}`,
        `الرمز صالح لمدة ${p.validity}. لا تشاركه مع أي شخص.`,
        p.link ? `أو اتبع هذا الرابط: ${p.link}` : '',
        'إذا لم تطلب هذا الرمز، تجاهل هذه الرسالة.',
      ],
      sms: (p) => `${p.brand}: رمز التحقق الخاص بك هو ${ltr(p.code)} (صالح ${p.validityShort}).`,
    },
  },
  mfa_code: {
    fr: {
      subject: (p) => `${p.brand} : votre code de connexion`,
      lines: (p) => [
        'Bonjour,',
        `Pour terminer votre connexion, saisissez le code : ${ltr(p.code)}`,
        `Il est valable ${p.validity}. Ne le communiquez à personne, même à nos équipes.`,
        'Si vous n’essayez pas de vous connecter, changez votre mot de passe.',
      ],
      sms: (p) =>
        `${p.brand} : code de connexion ${p.code} (valable ${p.validityShort}). Ne le communiquez à personne.`,
    },
    en: {
      subject: (p) => `${p.brand}: your sign-in code`,
      lines: (p) => [
        'Hello,',
        `To finish signing in, enter the code: ${ltr(p.code)}`,
        `It is valid for ${p.validity}. Never share it, not even with our staff.`,
        'If you are not trying to sign in, change your password.',
      ],
      sms: (p) => `${p.brand}: sign-in code ${p.code} (valid ${p.validityShort}). Never share it.`,
    },
    ar: {
      subject: (p) => `${p.brand}: رمز تسجيل الدخول`,
      lines: (p) => [
        'مرحبًا،',
        `لإتمام تسجيل الدخول، أدخل الرمز: ${ltr(p.code)}`,
        `الرمز صالح لمدة ${p.validity}. لا تشاركه مع أي أحد، ولا حتى مع فريقنا.`,
        'إذا لم تكن تحاول تسجيل الدخول، غيّر كلمة المرور.',
      ],
      sms: (p) =>
        `${p.brand}: رمز تسجيل الدخول ${ltr(p.code)} (صالح ${p.validityShort}). لا تشاركه.`,
    },
  },
  password_reset_code: {
    fr: {
      subject: (p) => `${p.brand} : réinitialisation de votre mot de passe`,
      lines: (p) => [
        'Bonjour,',
        `Pour choisir un nouveau mot de passe, saisissez le code : ${ltr(p.code)}`,
        `Il est valable ${p.validity}.`,
        'Si vous n’avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.',
      ],
      sms: (p) =>
        `${p.brand} : code de réinitialisation du mot de passe ${p.code} (valable ${p.validityShort}).`,
    },
    en: {
      subject: (p) => `${p.brand}: resetting your password`,
      lines: (p) => [
        'Hello,',
        `To choose a new password, enter the code: ${ltr(p.code)}`,
        `It is valid for ${p.validity}.`,
        'If you did not ask for it, ignore this message: your password is unchanged.',
      ],
      sms: (p) => `${p.brand}: password reset code ${p.code} (valid ${p.validityShort}).`,
    },
    ar: {
      subject: (p) => `${p.brand}: إعادة تعيين كلمة المرور`,
      lines: (p) => [
        'مرحبًا،',
        `لاختيار كلمة مرور جديدة، أدخل الرمز: ${ltr(p.code)}`,
        `الرمز صالح لمدة ${p.validity}.`,
        'إذا لم تطلب ذلك، تجاهل هذه الرسالة: كلمة المرور لم تتغير.',
      ],
      sms: (p) =>
        `${p.brand}: رمز إعادة تعيين كلمة المرور ${ltr(p.code)} (صالح ${p.validityShort}).`,
    },
  },
  sign_in_notice: {
    fr: {
      subject: (p) => `${p.brand} : nouvelle connexion à votre compte`,
      lines: (p) => [
        'Bonjour,',
        `Nouvelle connexion le ${isolate(p.date)} depuis ${ltr(p.device)} (adresse ${ltr(p.ip)}).`,
        'C’était vous ? Vous n’avez rien à faire.',
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : nouvelle connexion à votre compte. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: new sign-in to your account`,
      lines: (p) => [
        'Hello,',
        `New sign-in on ${isolate(p.date)} from ${ltr(p.device)} (address ${ltr(p.ip)}).`,
        'Was it you? Then there is nothing to do.',
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: new sign-in to your account. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تسجيل دخول جديد إلى حسابك`,
      lines: (p) => [
        'مرحبًا،',
        `تسجيل دخول جديد في ${isolate(p.date)} من ${ltr(p.device)} (العنوان ${ltr(p.ip)}).`,
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
        `Le ${isolate(p.date)}, quelqu’un a indiqué votre identifiant de santé (INS ou numéro professionnel) pour un autre compte. Rien n’a été modifié sur le vôtre.`,
        `Si ce n’était pas vous, contactez ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) =>
        `${p.brand} : votre identifiant de santé a été saisi pour un autre compte. Contact : ${p.contactEmail}`,
    },
    en: {
      subject: (p) => `${p.brand}: someone else entered your health identifier`,
      lines: (p) => [
        'Hello,',
        `On ${isolate(p.date)}, someone gave your health identifier (INS or professional number) for another account. Nothing was changed on yours.`,
        `If it was not you, contact ${ltr(p.contactEmail)}.`,
      ],
      sms: (p) =>
        `${p.brand}: your health identifier was entered for another account. Contact: ${p.contactEmail}`,
    },
    ar: {
      subject: (p) => `${p.brand}: أدخل شخص آخر معرّفك الصحي`,
      lines: (p) => [
        'مرحبًا،',
        `في ${isolate(p.date)}، أدخل شخص ما معرّفك الصحي (INS أو الرقم المهني) لحساب آخر. لم يتغيّر شيء في حسابك.`,
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
        `Le mot de passe de votre compte a été modifié le ${isolate(p.date)}. Vos autres sessions et appareils de confiance ont été déconnectés.`,
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
        `Your account password was changed on ${isolate(p.date)}. Your other sessions and trusted devices were signed out.`,
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
        `تم تغيير كلمة مرور حسابك في ${isolate(p.date)}. تم تسجيل الخروج من جلساتك وأجهزتك الموثوقة الأخرى.`,
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
        `L’adresse e-mail de votre compte a été remplacée par ${ltr(p.newEmail)} le ${isolate(p.date)}.`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : adresse e-mail modifiée. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: your account e-mail address changed`,
      lines: (p) => [
        'Hello,',
        `Your account e-mail address was replaced by ${ltr(p.newEmail)} on ${isolate(p.date)}.`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: e-mail address changed. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تم تغيير البريد الإلكتروني لحسابك`,
      lines: (p) => [
        'مرحبًا،',
        `تم استبدال البريد الإلكتروني لحسابك بـ ${ltr(p.newEmail)} في ${isolate(p.date)}.`,
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
        `Le numéro de téléphone mobile de votre compte a été remplacé par ${ltr(p.newPhone)} le ${isolate(p.date)}.`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : numéro de téléphone modifié. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: your account phone number changed`,
      lines: (p) => [
        'Hello,',
        `Your account mobile number was replaced by ${ltr(p.newPhone)} on ${isolate(p.date)}.`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: phone number changed. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تم تغيير رقم هاتف حسابك`,
      lines: (p) => [
        'مرحبًا،',
        `تم استبدال رقم الهاتف المحمول لحسابك بـ ${ltr(p.newPhone)} في ${isolate(p.date)}.`,
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
        `Une clé de connexion biométrique a été ajoutée à votre compte le ${isolate(p.date)} (${ltr(p.device)}).`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : connexion biométrique ajoutée. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: a biometric sign-in was added`,
      lines: (p) => [
        'Hello,',
        `A biometric sign-in key was added to your account on ${isolate(p.date)} (${ltr(p.device)}).`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: biometric sign-in added. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: تمت إضافة تسجيل دخول بيومتري`,
      lines: (p) => [
        'مرحبًا،',
        `تمت إضافة مفتاح تسجيل دخول بيومتري إلى حسابك في ${isolate(p.date)} (${ltr(p.device)}).`,
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: تمت إضافة تسجيل دخول بيومتري. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
  identity_linked: {
    fr: {
      subject: (p) => `${p.brand} : une identité ${p.provider} a été liée à votre compte`,
      lines: (p) => [
        'Bonjour,',
        `Votre identité ${ltr(p.provider)} a été liée à votre compte le ${isolate(p.date)} : elle permet désormais de vous y connecter.`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : identité ${p.provider} liée. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: a ${p.provider} identity was linked to your account`,
      lines: (p) => [
        'Hello,',
        `Your ${ltr(p.provider)} identity was linked to your account on ${isolate(p.date)}: it can now sign you in.`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: ${p.provider} identity linked. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: رُبطت هوية ${p.provider} بحسابك`,
      lines: (p) => [
        'مرحبًا،',
        `رُبطت هويتك في ${ltr(p.provider)} بحسابك في ${isolate(p.date)}: أصبح بإمكانها تسجيل دخولك.`,
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: رُبطت هوية ${p.provider}. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
  identity_unlinked: {
    fr: {
      subject: (p) => `${p.brand} : une identité ${p.provider} a été déliée de votre compte`,
      lines: (p) => [
        'Bonjour,',
        `Votre identité ${ltr(p.provider)} a été déliée de votre compte le ${isolate(p.date)} : elle ne permet plus de vous y connecter.`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : identité ${p.provider} déliée. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: a ${p.provider} identity was unlinked from your account`,
      lines: (p) => [
        'Hello,',
        `Your ${ltr(p.provider)} identity was unlinked from your account on ${isolate(p.date)}: it no longer signs you in.`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: ${p.provider} identity unlinked. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: أُلغي ربط هوية ${p.provider} بحسابك`,
      lines: (p) => [
        'مرحبًا،',
        `أُلغي ربط هويتك في ${ltr(p.provider)} بحسابك في ${isolate(p.date)}: لم تعد تسجّل دخولك.`,
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: أُلغي ربط هوية ${p.provider}. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
  totp_enabled: {
    fr: {
      subject: (p) =>
        `${p.brand} : une application d’authentification a été ajoutée à votre compte`,
      lines: (p) => [
        'Bonjour,',
        `Une application d’authentification a été ajoutée à votre compte le ${isolate(p.date)} : ses codes servent désormais de second facteur.`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : application d’authentification ajoutée. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: an authenticator app was added to your account`,
      lines: (p) => [
        'Hello,',
        `An authenticator app was added to your account on ${isolate(p.date)}: its codes now serve as a second factor.`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: authenticator app added. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: أُضيف تطبيق مصادقة إلى حسابك`,
      lines: (p) => [
        'مرحبًا،',
        `أُضيف تطبيق مصادقة إلى حسابك في ${isolate(p.date)}: أصبحت رموزه عاملًا ثانيًا.`,
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: أُضيف تطبيق مصادقة. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
  totp_removed: {
    fr: {
      subject: (p) => `${p.brand} : l’application d’authentification a été retirée de votre compte`,
      lines: (p) => [
        'Bonjour,',
        `L’application d’authentification a été retirée de votre compte le ${isolate(p.date)} : ses codes ne sont plus acceptés.`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : application d’authentification retirée. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: the authenticator app was removed from your account`,
      lines: (p) => [
        'Hello,',
        `The authenticator app was removed from your account on ${isolate(p.date)}: its codes are no longer accepted.`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: authenticator app removed. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: أُزيل تطبيق المصادقة من حسابك`,
      lines: (p) => [
        'مرحبًا،',
        `أُزيل تطبيق المصادقة من حسابك في ${isolate(p.date)}: لم تعد رموزه مقبولة.`,
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: أُزيل تطبيق المصادقة. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
  recovery_codes_generated: {
    fr: {
      subject: (p) => `${p.brand} : de nouveaux codes de secours ont été créés pour votre compte`,
      lines: (p) => [
        'Bonjour,',
        `De nouveaux codes de secours ont été créés pour votre compte le ${isolate(p.date)} : les précédents ne fonctionnent plus.`,
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand} : nouveaux codes de secours créés. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: new recovery codes were created for your account`,
      lines: (p) => [
        'Hello,',
        `New recovery codes were created for your account on ${isolate(p.date)}: the previous ones no longer work.`,
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: new recovery codes created. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: أُنشئت رموز استرداد جديدة لحسابك`,
      lines: (p) => [
        'مرحبًا،',
        `أُنشئت رموز استرداد جديدة لحسابك في ${isolate(p.date)}: لم تعد الرموز السابقة تعمل.`,
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: أُنشئت رموز استرداد جديدة. لم تكن أنت؟ ${p.lockUrl}`,
    },
  },
  recovery_code_used: {
    fr: {
      subject: (p) => `${p.brand} : un code de secours a servi à vous connecter`,
      lines: (p) => [
        'Bonjour,',
        `Un code de secours a servi de second facteur pour vous connecter le ${isolate(p.date)}. Il vous en reste ${isolate(p.remaining)}.`,
        p.remaining === '0'
          ? 'Vous n’avez plus de code de secours : créez-en de nouveaux dans « Mes appareils ».'
          : 'Quand il ne vous en restera plus, créez-en de nouveaux dans « Mes appareils ».',
        `Ce n’était pas vous ? Verrouillez votre compte immédiatement : ${p.lockUrl}`,
      ],
      sms: (p) =>
        `${p.brand} : code de secours utilisé, il en reste ${p.remaining}. Pas vous ? ${p.lockUrl}`,
    },
    en: {
      subject: (p) => `${p.brand}: a recovery code was used to sign in`,
      lines: (p) => [
        'Hello,',
        `A recovery code served as the second factor to sign in on ${isolate(p.date)}. You have ${isolate(p.remaining)} left.`,
        p.remaining === '0'
          ? 'You have no recovery codes left: create new ones in “My devices”.'
          : 'When you have none left, create new ones in “My devices”.',
        `Not you? Lock your account now: ${p.lockUrl}`,
      ],
      sms: (p) => `${p.brand}: recovery code used, ${p.remaining} left. Not you? ${p.lockUrl}`,
    },
    ar: {
      subject: (p) => `${p.brand}: استُخدم رمز استرداد لتسجيل الدخول`,
      lines: (p) => [
        'مرحبًا،',
        `استُخدم رمز استرداد عاملًا ثانيًا لتسجيل الدخول في ${isolate(p.date)}. المتبقي لديك: ${isolate(p.remaining)}.`,
        p.remaining === '0'
          ? 'لم يبقَ لديك أي رمز استرداد: أنشئ رموزًا جديدة في «أجهزتي».'
          : 'عندما لا يبقى لديك أي رمز، أنشئ رموزًا جديدة في «أجهزتي».',
        `لم تكن أنت؟ اقفل حسابك فورًا: ${p.lockUrl}`,
      ],
      sms: (p) =>
        `${p.brand}: استُخدم رمز استرداد، المتبقي ${p.remaining}. لم تكن أنت؟ ${p.lockUrl}`,
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

// Codes, numbers and addresses stay left-to-right inside Arabic text; dates (words and digits in
// the message's language) are isolated without forcing a direction.
const LTR_START = '\u2066';
const FSI_START = '\u2068';
const ISOLATE_END = '\u2069';
function ltr(value: string | undefined): string {
  return `${LTR_START}${value ?? ''}${ISOLATE_END}`;
}
function isolate(value: string | undefined): string {
  return `${FSI_START}${value ?? ''}${ISOLATE_END}`;
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

/** What every message says of itself, from the configuration. */
export interface LetterSettings {
  /** The IANA time zone dates are written in (`TIME_ZONE`, Europe/Paris by default). */
  timeZone: string;
  /** The portal's address: the logo comes from there, and the footer links to it. */
  publicUrl: URL;
  /** Where a recipient gets help. */
  contactEmail: string;
}

interface Button {
  /** The parameter holding the link. */
  param: string;
  label: Record<Language, string>;
}

const SIGN_IN: Record<Language, string> = { fr: 'Me connecter', en: 'Sign in', ar: 'تسجيل الدخول' };
const LOCK: Record<Language, string> = {
  fr: 'Ce n’était pas moi : verrouiller mon compte',
  en: 'It was not me: lock my account',
  ar: 'لم أكن أنا: اقفل حسابي',
};

/** The main link of a message, drawn as a button below the line that carries it in text. */
const BUTTONS: Partial<Record<TemplateName, Button>> = {
  verification_code: {
    param: 'link',
    label: { fr: 'Vérifier mon adresse', en: 'Verify my address', ar: 'تأكيد عنواني' },
  },
  first_login_invitation: {
    param: 'link',
    label: { fr: 'Choisir mon mot de passe', en: 'Choose my password', ar: 'اختيار كلمة المرور' },
  },
  password_reset_link: {
    param: 'link',
    label: {
      fr: 'Choisir un nouveau mot de passe',
      en: 'Choose a new password',
      ar: 'اختيار كلمة مرور جديدة',
    },
  },
  account_validated: { param: 'loginUrl', label: SIGN_IN },
  identifier_in_use: { param: 'loginUrl', label: SIGN_IN },
  sign_in_notice: { param: 'lockUrl', label: LOCK },
  password_changed: { param: 'lockUrl', label: LOCK },
  email_changed: { param: 'lockUrl', label: LOCK },
  phone_changed: { param: 'lockUrl', label: LOCK },
  biometric_added: { param: 'lockUrl', label: LOCK },
  identity_linked: { param: 'lockUrl', label: LOCK },
  identity_unlinked: { param: 'lockUrl', label: LOCK },
  totp_enabled: { param: 'lockUrl', label: LOCK },
  totp_removed: { param: 'lockUrl', label: LOCK },
  recovery_codes_generated: { param: 'lockUrl', label: LOCK },
  recovery_code_used: { param: 'lockUrl', label: LOCK },
};

/** Why the message came and how to get help, at the foot of every e-mail. */
const FOOTER: Record<Language, (brand: string, contact: string, portal: string) => string[]> = {
  fr: (brand, contact, portal) => [
    `Vous recevez ce message parce que cette adresse est celle d’un compte ${brand} (${portal}). C’est un message automatique : n’y répondez pas.`,
    `Besoin d’aide ? Écrivez à ${ltr(contact)}.`,
  ],
  en: (brand, contact, portal) => [
    `You are receiving this message because this address belongs to a ${brand} account (${portal}). It was sent automatically: do not reply to it.`,
    `Need help? Write to ${ltr(contact)}.`,
  ],
  ar: (brand, contact, portal) => [
    `تتلقى هذه الرسالة لأن هذا العنوان مرتبط بحساب على ${brand} (${portal}). هذه رسالة آلية: لا تردّ عليها.`,
    `هل تحتاج إلى مساعدة؟ راسل ${ltr(contact)}.`,
  ],
};

/** Intl locales: Arabic keeps the Latin digits the rest of the portal uses. */
const INTL_LOCALE: Record<Language, string> = { fr: 'fr-FR', en: 'en-GB', ar: 'ar-u-nu-latn' };

/** A moment in words, in the message's language and the configured time zone, zone named. */
export function formatMoment(at: number, language: Language, timeZone: string): string {
  return new Intl.DateTimeFormat(INTL_LOCALE[language], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
    timeZoneName: 'short',
  }).format(at);
}

/**
 * A duration in words, with the language's plural rules ("10 minutes", "1 heure", "10 دقائق"):
 * whole hours, else whole minutes (never more than the truth), else seconds.
 */
export function formatDuration(
  seconds: number,
  language: Language,
  unitDisplay: 'long' | 'short' = 'long',
): string {
  const [unit, value] =
    seconds >= 3600 && seconds % 3600 === 0
      ? (['hour', seconds / 3600] as const)
      : seconds >= 60
        ? (['minute', Math.floor(seconds / 60)] as const)
        : (['second', seconds] as const);
  return new Intl.NumberFormat(INTL_LOCALE[language], {
    style: 'unit',
    unit,
    unitDisplay,
  })
    .format(value)
    .replace(/[\u00a0\u202f]/g, ' '); // plain spaces: an SMS stays in the GSM alphabet
}

/** The code lifetime when a message does not say it (rows queued before `ttlSeconds` existed). */
const DEFAULT_TTL_SECONDS = 600;

/** Parameters computed from others: the moment in words, the code's lifetime in words. */
function derivedParams(params: Params, language: Language, letter: LetterSettings): Params {
  const at = Number(params.at);
  const ttl = Number(params.ttlSeconds ?? DEFAULT_TTL_SECONDS);
  const seconds = Number.isFinite(ttl) && ttl > 0 ? ttl : DEFAULT_TTL_SECONDS;
  return {
    ...(params.at !== undefined && Number.isFinite(at)
      ? { date: formatMoment(at, language, letter.timeZone) }
      : {}),
    validity: formatDuration(seconds, language),
    validityShort: formatDuration(seconds, language, 'short'),
  };
}

/** A line of text as HTML: isolates marked up, addresses made links. */
function lineHtml(line: string): string {
  return escapeHtml(line)
    .replaceAll(LTR_START, '<bdi dir="ltr"><strong>')
    .replaceAll(FSI_START, '<bdi><strong>')
    .replaceAll(ISOLATE_END, '</strong></bdi>')
    .replace(
      // An address ends before the punctuation that closes its sentence.
      /https?:\/\/[^\s<]*[^\s<.,;:!?)]/g,
      (url) => `<a href="${url}" dir="ltr" style="word-break: break-all;">${url}</a>`,
    );
}

function plain(line: string): string {
  return line.replaceAll(LTR_START, '').replaceAll(FSI_START, '').replaceAll(ISOLATE_END, '');
}

/** Renders a template in a language and a brand: subject, HTML and plain-text e-mail, SMS. */
export function renderMessage(
  template: TemplateName,
  language: Language,
  brand: Brand,
  params: Params,
  letter: LetterSettings,
): RenderedMessage {
  const text: TemplateText = TEMPLATES[template][language];
  const userText = Object.fromEntries(
    USER_TEXT_PARAMS.filter((name) => params[name] !== undefined).map((name) => [
      name,
      neutraliseLinks(params[name] ?? ''),
    ]),
  );
  const brandName = BRAND_NAMES[brand];
  const all = {
    ...params,
    ...userText,
    ...derivedParams(params, language, letter),
    brand: brandName,
  };
  const subject = text.subject(all);
  const lines = text.lines(all).filter((line) => line !== '');
  const portal = letter.publicUrl.href;
  const footer = FOOTER[language](brandName, letter.contactEmail, portal);
  const dir = RTL_LANGUAGES.includes(language) ? 'rtl' : 'ltr';
  const { primary } = BRAND_COLORS[brand];
  const button = BUTTONS[template];
  const buttonUrl = button ? params[button.param] : undefined;
  const buttonHtml =
    button && buttonUrl
      ? `<p style="margin: 24px 0;"><a href="${escapeHtml(buttonUrl)}" data-button style="display: inline-block; background: ${primary}; color: #ffffff; padding: 12px 20px; border-radius: 6px; font-weight: bold; text-decoration: none;">${escapeHtml(button.label[language])}</a></p>`
      : '';
  // The button follows the line that gives its link in text (or closes the body if none does).
  const carrying = buttonUrl ? lines.findIndex((line) => line.includes(buttonUrl)) : -1;
  const body = lines
    .map((line, index) => {
      const paragraph = `<p style="margin: 0 0 16px;">${lineHtml(line)}</p>`;
      return index === carrying ? `${paragraph}\n${buttonHtml}` : paragraph;
    })
    .join('\n');
  const logo = new URL(`/brands/${brand}.png`, letter.publicUrl).href;
  const html = `<!doctype html>
<html lang="${language}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin: 0; padding: 0; background: #f4f6f8;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background: #f4f6f8;"><tr><td align="center" style="padding: 24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width: 600px; background: #ffffff; border-top: 6px solid ${primary}; border-radius: 6px;">
<tr><td style="padding: 24px 24px 8px;"><img src="${logo}" width="${brand === 'telecare' ? 200 : 160}" height="40" alt="${escapeHtml(brandName)}" style="display: block; border: 0;"></td></tr>
<tr><td dir="${dir}" style="padding: 16px 24px 8px; font-family: Arial, Helvetica, sans-serif; font-size: 16px; line-height: 1.5; color: #1a1a1a;">
${body}
${carrying === -1 ? buttonHtml : ''}
</td></tr>
<tr><td dir="${dir}" style="padding: 16px 24px 24px; border-top: 1px solid #dde3e8; font-family: Arial, Helvetica, sans-serif; font-size: 13px; line-height: 1.5; color: #4a5560;">
${footer.map((line) => `<p style="margin: 0 0 8px;">${lineHtml(line)}</p>`).join('\n')}
</td></tr>
</table>
</td></tr></table>
</body></html>`;
  return {
    subject,
    text: [...lines, '--', ...footer].map(plain).join('\n\n'),
    html,
    sms: text.sms(all),
  };
}

/** The letter settings from the configuration. */
export function letterSettings(
  config: Pick<Config, 'timeZone' | 'publicUrl' | 'contactEmail'>,
): LetterSettings {
  return {
    timeZone: config.timeZone,
    publicUrl: config.publicUrl,
    contactEmail: config.contactEmail,
  };
}
