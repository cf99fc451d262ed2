import type { ErrorCode, Language } from '@hygie/domain';
import { waitInWords } from './wait-words.js';

// The envelope's `message`: the web translates by code, but API clients (and the platforms) read
// this text, so every code has one in each language. `{name}` placeholders come from `data`, but
// `{wait}`: `data.retryAfterSeconds` in words, in the language's plural forms (wait-words.ts).
type Catalogue = Record<ErrorCode, string>;

const fr: Catalogue = {
  not_logged_in: 'Vous n’êtes pas connecté.',
  session_expired: 'Votre session a expiré, veuillez vous reconnecter.',
  two_factor_authentication_required: 'Une vérification en deux étapes est requise.',
  email_not_verified: 'Votre adresse e-mail doit être vérifiée.',
  mobile_phone_not_verified: 'Votre numéro de téléphone mobile doit être vérifié.',
  cgu_not_accepted: 'Vous devez accepter les conditions générales d’utilisation.',
  password_expired: 'Votre mot de passe a expiré, veuillez le renouveler.',
  password_creation_required: 'Vous devez créer un mot de passe.',
  invalid_email: 'Adresse e-mail incorrecte',
  invalid_password: 'Mot de passe incorrect',
  bad_credentials: 'Identifiants incorrects, vérifiez votre e-mail et votre mot de passe',
  phone_shared_by_accounts:
    'Ce numéro de mobile est utilisé par plusieurs comptes : connectez-vous avec votre adresse e-mail, votre INS ou votre RPPS',
  account_locked: 'L’accès au compte a été verrouillé, contactez {contactEmail}',
  account_disabled: 'Ce compte a été désactivé par un administrateur, contactez {contactEmail}',
  account_pending_validation: 'Votre identité doit être vérifiée avant de pouvoir vous connecter.',
  too_many_attempts: 'Trop de tentatives, veuillez réessayer plus tard.',
  identity_provider_unavailable: 'La connexion avec cette méthode est actuellement indisponible.',
  identity_provider_sign_in_invalid:
    'Cette connexion n’a pas pu être vérifiée : recommencez depuis la page de connexion.',
  password_must_differ: 'Le nouveau mot de passe doit être différent de l’ancien.',
  password_too_weak:
    'Au moins 9 caractères (ou 8 avec un caractère spécial) dont 1 chiffre, 1 lettre minuscule et 1 lettre majuscule.',
  password_too_common: 'Ce mot de passe est trop courant, choisissez-en un autre.',
  passwords_do_not_match: 'Les mots de passe ne correspondent pas.',
  wrong_current_password: 'Modifications non enregistrées, veuillez vérifier votre mot de passe.',
  reauthentication_required: 'Pour continuer, confirmez votre mot de passe.',
  second_factor_required: 'Confirmez d’abord votre identité avec un code de vérification.',
  wait_before_retry: 'Veuillez patienter {wait} avant de réessayer.',
  too_many_trials: 'Trop d’essais, veuillez recommencer la procédure.',
  wrong_code: 'Code incorrect.',
  code_expired: 'Ce code a expiré.',
  code_invalid: 'Ce code n’est pas valide.',
  code_already_used: 'Ce code a déjà servi : attendez le code suivant de votre application.',
  totp_already_enabled:
    'Une application d’authentification est déjà enregistrée : retirez-la avant d’en ajouter une autre.',
  recovery_code_already_used: 'Ce code de secours a déjà servi : chaque code ne sert qu’une fois.',
  code_already_sent: 'Un code vient déjà d’être envoyé.',
  link_expired: 'Ce lien de connexion a expiré.',
  email_already_used: 'Cette adresse e-mail est déjà utilisée.',
  registration_failed: 'L’inscription a échoué, veuillez réessayer plus tard.',
  biometric_verification_failed: 'Erreur de vérification biométrique.',
  biometric_key_invalidated:
    'Votre clé biométrique n’est plus valide, veuillez l’enregistrer à nouveau.',
  biometric_enrolment_failed: 'L’enregistrement biométrique a échoué.',
  settings_load_failed: 'Impossible de charger les paramètres.',
  settings_update_failed: 'Impossible de mettre à jour les paramètres.',
  settings_reset_failed: 'Impossible de réinitialiser les paramètres.',
  access_denied: 'Vous n’avez pas accès à cette plateforme.',
  assurance_level_required:
    'Cet espace demande un niveau de sécurité de connexion plus élevé : confirmez votre identité avec un moyen plus fort.',
  assurance_mapping_invalid:
    'Cette correspondance des niveaux n’est pas valide : la méthode « {method} » est inconnue.',
  message_not_retryable:
    'Ce message portait un code ou un lien, ou n’a pas échoué : il ne peut pas être renvoyé. La personne en demande un nouveau.',
  last_admin: 'C’est le dernier administrateur actif : nommez d’abord un autre administrateur.',
  last_sign_in_method: 'C’est le dernier moyen de vous connecter : créez d’abord un mot de passe.',
  terms_version_exists:
    'Cette version des conditions existe déjà : une version publiée ne change plus, publiez-en une nouvelle.',
  terms_date_too_early: 'La date d’effet ne peut pas précéder celle de la version en vigueur.',
  terms_changed:
    'Les conditions ont changé pendant votre lecture : lisez la version en vigueur, puis acceptez-la.',
  account_state_conflict: 'Le compte n’est pas dans un état qui permet cette action.',
  validation_error: 'Certaines données sont invalides.',
  invalid_cursor: 'Cette page de résultats n’est plus valable. Relancez la recherche.',
  invalid_json: 'Le corps de la requête n’est pas un JSON valide.',
  unsupported_media_type: 'Type de contenu non pris en charge.',
  payload_too_large: 'La requête est trop volumineuse.',
  csrf_token_invalid: 'Jeton anti-falsification manquant ou invalide, rechargez la page.',
  forbidden: 'Accès refusé.',
  not_found: 'Ressource introuvable.',
  method_not_allowed: 'Méthode non autorisée.',
  too_many_requests: 'Trop de requêtes, veuillez réessayer plus tard.',
  service_unavailable: 'Service momentanément indisponible.',
  unknown_error: 'Une erreur est survenue.',
};

const en: Catalogue = {
  not_logged_in: 'You are not signed in.',
  session_expired: 'Your session has expired, please sign in again.',
  two_factor_authentication_required: 'Two-step verification is required.',
  email_not_verified: 'Your e-mail address must be verified.',
  mobile_phone_not_verified: 'Your mobile phone number must be verified.',
  cgu_not_accepted: 'You must accept the terms of use.',
  password_expired: 'Your password has expired, please renew it.',
  password_creation_required: 'You must create a password.',
  invalid_email: 'Incorrect email address',
  invalid_password: 'Incorrect password',
  bad_credentials: 'Incorrect credentials, check your email and password',
  phone_shared_by_accounts:
    'This mobile number is used by several accounts: sign in with your email address, your INS or your RPPS',
  account_locked: 'Account access has been locked, contact {contactEmail}',
  account_disabled: 'This account was disabled by an administrator, contact {contactEmail}',
  account_pending_validation: 'Your identity must be verified before you can sign in.',
  too_many_attempts: 'Too many attempts, please try again later.',
  identity_provider_unavailable: 'Login with this method is currently unavailable.',
  identity_provider_sign_in_invalid:
    'This sign-in could not be verified: start again from the sign-in page.',
  password_must_differ: 'The new password must differ from the old one.',
  password_too_weak:
    'At least 9 characters (or 8 with a special character) with 1 digit, 1 lowercase and 1 uppercase letter.',
  password_too_common: 'This password is too common, please choose another one.',
  passwords_do_not_match: 'Passwords do not match.',
  wrong_current_password: 'Changes not saved, please check your password.',
  reauthentication_required: 'To continue, confirm your password.',
  second_factor_required: 'First confirm who you are with a verification code.',
  wait_before_retry: 'Please wait {wait} before trying again.',
  too_many_trials: 'Too many trials, please restart the process.',
  wrong_code: 'Wrong code.',
  code_expired: 'This code has expired.',
  code_invalid: 'This code is invalid.',
  code_already_used: 'This code has already been used: wait for your app’s next code.',
  totp_already_enabled: 'An authenticator app is already set up: remove it before adding another.',
  recovery_code_already_used: 'This recovery code has already been used: each code works once.',
  code_already_sent: 'A code was sent recently.',
  link_expired: 'This connection link has expired.',
  email_already_used: 'This email address is already used.',
  registration_failed: 'Sign-up failed, please try again later.',
  biometric_verification_failed: 'Biometric verification error.',
  biometric_key_invalidated: 'Your biometric key is no longer valid, please enrol again.',
  biometric_enrolment_failed: 'Biometric enrolment failed.',
  settings_load_failed: 'The settings could not be loaded.',
  settings_update_failed: 'The settings could not be updated.',
  settings_reset_failed: 'The settings could not be reset.',
  access_denied: 'You do not have access to this platform.',
  assurance_level_required:
    'This area needs a stronger sign-in: confirm your identity with a stronger means.',
  assurance_mapping_invalid: 'This level mapping is not valid: the method “{method}” is unknown.',
  message_not_retryable:
    'This message carried a code or a link, or has not failed: it cannot be sent again. The person asks for a new one.',
  last_admin: 'This is the last active administrator: make someone else an administrator first.',
  last_sign_in_method: 'This is your last way to sign in: create a password first.',
  terms_version_exists:
    'This terms version already exists: a published version never changes, publish a new one.',
  terms_date_too_early: 'The effective date cannot be earlier than that of the version in force.',
  terms_changed:
    'The terms changed while you were reading: read the version in force, then accept it.',
  account_state_conflict: 'The account is not in a state that allows this action.',
  validation_error: 'Some data is invalid.',
  invalid_cursor: 'This page of results is no longer valid. Search again.',
  invalid_json: 'The request body is not valid JSON.',
  unsupported_media_type: 'Unsupported content type.',
  payload_too_large: 'The request is too large.',
  csrf_token_invalid: 'Missing or invalid anti-forgery token, reload the page.',
  forbidden: 'Access denied.',
  not_found: 'Not found.',
  method_not_allowed: 'Method not allowed.',
  too_many_requests: 'Too many requests, please try again later.',
  service_unavailable: 'Service temporarily unavailable.',
  unknown_error: 'An error occurred.',
};

const ar: Catalogue = {
  not_logged_in: 'أنت غير مسجّل الدخول.',
  session_expired: 'انتهت صلاحية جلستك، يرجى تسجيل الدخول مجددًا.',
  two_factor_authentication_required: 'يلزم التحقق بخطوتين.',
  email_not_verified: 'يجب التحقق من عنوان بريدك الإلكتروني.',
  mobile_phone_not_verified: 'يجب التحقق من رقم هاتفك المحمول.',
  cgu_not_accepted: 'يجب عليك قبول شروط الاستخدام.',
  password_expired: 'انتهت صلاحية كلمة المرور، يرجى تجديدها.',
  password_creation_required: 'يجب عليك إنشاء كلمة مرور.',
  invalid_email: 'عنوان البريد الإلكتروني غير صحيح',
  invalid_password: 'كلمة المرور غير صحيحة',
  bad_credentials: 'بيانات الدخول غير صحيحة، تحقق من بريدك الإلكتروني وكلمة المرور',
  phone_shared_by_accounts:
    'رقم الهاتف المحمول هذا مستخدم في عدة حسابات: سجّل الدخول ببريدك الإلكتروني أو رقم INS أو رقم RPPS',
  account_locked: 'تم قفل الوصول إلى الحساب، تواصل مع {contactEmail}',
  account_disabled: 'عطّل أحد المسؤولين هذا الحساب، تواصل مع {contactEmail}',
  account_pending_validation: 'يجب التحقق من هويتك قبل أن تتمكن من تسجيل الدخول.',
  too_many_attempts: 'محاولات كثيرة جدًا، يرجى المحاولة لاحقًا.',
  identity_provider_unavailable: 'تسجيل الدخول بهذه الطريقة غير متاح حاليًا.',
  identity_provider_sign_in_invalid:
    'تعذّر التحقق من تسجيل الدخول هذا: أعد المحاولة من صفحة تسجيل الدخول.',
  password_must_differ: 'يجب أن تختلف كلمة المرور الجديدة عن القديمة.',
  password_too_weak: '9 أحرف على الأقل (أو 8 مع رمز خاص) تتضمن رقمًا واحدًا وحرفًا صغيرًا وحرفًا كبيرًا.',
  password_too_common: 'كلمة المرور هذه شائعة جدًا، اختر كلمة أخرى.',
  passwords_do_not_match: 'كلمتا المرور غير متطابقتين.',
  wrong_current_password: 'لم يتم حفظ التغييرات، يرجى التحقق من كلمة المرور.',
  reauthentication_required: 'للمتابعة، أكّد كلمة المرور الخاصة بك.',
  second_factor_required: 'أكّد هويتك أولًا برمز تحقق.',
  wait_before_retry: 'يرجى الانتظار {wait} قبل المحاولة مجددًا.',
  too_many_trials: 'محاولات كثيرة جدًا، يرجى إعادة العملية من البداية.',
  wrong_code: 'الرمز غير صحيح.',
  code_expired: 'انتهت صلاحية هذا الرمز.',
  code_invalid: 'هذا الرمز غير صالح.',
  code_already_used: 'استُخدم هذا الرمز من قبل: انتظر الرمز التالي في تطبيقك.',
  totp_already_enabled: 'تطبيق مصادقة مسجّل بالفعل: أزله قبل إضافة تطبيق آخر.',
  recovery_code_already_used: 'استُخدم رمز الاسترداد هذا من قبل: كل رمز يصلح مرة واحدة.',
  code_already_sent: 'تم إرسال رمز مؤخرًا.',
  link_expired: 'انتهت صلاحية رابط الدخول هذا.',
  email_already_used: 'عنوان البريد الإلكتروني هذا مستخدم بالفعل.',
  registration_failed: 'فشل التسجيل، يرجى المحاولة لاحقًا.',
  biometric_verification_failed: 'خطأ في التحقق البيومتري.',
  biometric_key_invalidated: 'لم يعد مفتاحك البيومتري صالحًا، يرجى التسجيل مجددًا.',
  biometric_enrolment_failed: 'فشل التسجيل البيومتري.',
  settings_load_failed: 'تعذّر تحميل الإعدادات.',
  settings_update_failed: 'تعذّر تحديث الإعدادات.',
  settings_reset_failed: 'تعذّرت إعادة تعيين الإعدادات.',
  access_denied: 'ليس لديك صلاحية الوصول إلى هذه المنصة.',
  assurance_level_required:
    'يتطلب هذا القسم مستوى أعلى من أمان تسجيل الدخول: أكّد هويتك بوسيلة أقوى.',
  assurance_mapping_invalid: 'ربط المستويات هذا غير صالح: الطريقة «{method}» غير معروفة.',
  message_not_retryable:
    'كانت هذه الرسالة تحمل رمزًا أو رابطًا، أو لم تفشل: لا يمكن إرسالها مجددًا. يطلب الشخص رسالة جديدة.',
  last_admin: 'هذا آخر مسؤول نشط: عيّن مسؤولًا آخر أولًا.',
  last_sign_in_method: 'هذه آخر وسيلة لتسجيل دخولك: أنشئ كلمة مرور أولًا.',
  terms_version_exists:
    'هذا الإصدار من الشروط موجود بالفعل: لا يتغيّر الإصدار المنشور، انشر إصدارًا جديدًا.',
  terms_date_too_early: 'لا يمكن أن يسبق تاريخ السريان تاريخ الإصدار الساري.',
  terms_changed: 'تغيّرت الشروط أثناء قراءتك: اقرأ الإصدار الساري ثم وافق عليه.',
  account_state_conflict: 'الحساب ليس في حالة تسمح بهذا الإجراء.',
  validation_error: 'بعض البيانات غير صالحة.',
  invalid_cursor: 'صفحة النتائج هذه لم تعد صالحة. أعد البحث.',
  invalid_json: 'محتوى الطلب ليس JSON صالحًا.',
  unsupported_media_type: 'نوع المحتوى غير مدعوم.',
  payload_too_large: 'الطلب كبير جدًا.',
  csrf_token_invalid: 'رمز الحماية من التزوير مفقود أو غير صالح، أعد تحميل الصفحة.',
  forbidden: 'تم رفض الوصول.',
  not_found: 'غير موجود.',
  method_not_allowed: 'الطريقة غير مسموح بها.',
  too_many_requests: 'طلبات كثيرة جدًا، يرجى المحاولة لاحقًا.',
  service_unavailable: 'الخدمة غير متاحة مؤقتًا.',
  unknown_error: 'حدث خطأ.',
};

const catalogues: Record<Language, Catalogue> = { fr, en, ar };

/** The localised message of a code, with `{name}` placeholders filled from data. */
export function errorMessage(
  code: ErrorCode,
  language: Language,
  data?: Record<string, unknown>,
): string {
  const template = catalogues[language][code];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const seconds = data?.retryAfterSeconds;
    if (name === 'wait')
      return typeof seconds === 'number' ? waitInWords(language, seconds) : whole;
    const value = data?.[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : whole;
  });
}
