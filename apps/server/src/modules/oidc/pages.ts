import type { Language } from '@hygie/domain';
import { asLanguage, DEFAULT_LANGUAGE, RTL_LANGUAGES } from '@hygie/domain';

// The provider's own pages, kept to two: the sign-out confirmation (RP-initiated logout) and the
// consent of a platform that is not first-party. Plain HTML without script, in fr, en and ar.

const TEXT = {
  fr: {
    logoutTitle: 'Se déconnecter ?',
    logoutBody: 'Vous allez être déconnecté de {portal} et des services où vous êtes connecté.',
    logoutYes: 'Me déconnecter',
    logoutNo: 'Rester connecté',
    consentTitle: '{platform} demande l’accès à votre compte',
    consentBody: 'En acceptant, vous autorisez {platform} à connaître :',
    consentAllow: 'Autoriser',
    consentDeny: 'Refuser',
    scope_openid: 'votre identifiant de compte',
    scope_email: 'votre adresse e-mail',
    scope_phone: 'votre numéro de téléphone mobile',
    scope_profile: 'vos nom, prénom, date de naissance, sexe et type de profil',
    scope_address: 'votre adresse postale',
    scope_health: 'votre identifiant de santé (INS ou identifiant professionnel)',
    scope_offline_access: 'un accès qui se poursuit après votre déconnexion',
    footerLabel: 'Informations légales',
    footerLegalNotice: 'Mentions légales',
    footerPrivacy: 'Données personnelles',
    footerAccessibility: 'Accessibilité : non conforme',
    footerContact: 'Contact',
  },
  en: {
    logoutTitle: 'Sign out?',
    logoutBody: 'You will be signed out of {portal} and of the services you are signed in to.',
    logoutYes: 'Sign me out',
    logoutNo: 'Stay signed in',
    consentTitle: '{platform} asks for access to your account',
    consentBody: 'If you accept, {platform} will know:',
    consentAllow: 'Allow',
    consentDeny: 'Deny',
    scope_openid: 'your account identifier',
    scope_email: 'your e-mail address',
    scope_phone: 'your mobile phone number',
    scope_profile: 'your names, date of birth, sex and profile type',
    scope_address: 'your postal address',
    scope_health: 'your health identifier (INS or professional identifier)',
    scope_offline_access: 'access that continues after you sign out',
    footerLabel: 'Legal information',
    footerLegalNotice: 'Legal notice',
    footerPrivacy: 'Personal data',
    footerAccessibility: 'Accessibility: not compliant',
    footerContact: 'Contact',
  },
  ar: {
    logoutTitle: 'تسجيل الخروج؟',
    logoutBody: 'سيتم تسجيل خروجك من {portal} ومن الخدمات التي سجلت الدخول إليها.',
    logoutYes: 'تسجيل خروجي',
    logoutNo: 'البقاء متصلاً',
    consentTitle: 'تطلب {platform} الوصول إلى حسابك',
    consentBody: 'بالموافقة، ستتمكن {platform} من معرفة:',
    consentAllow: 'سماح',
    consentDeny: 'رفض',
    scope_openid: 'معرّف حسابك',
    scope_email: 'عنوان بريدك الإلكتروني',
    scope_phone: 'رقم هاتفك المحمول',
    scope_profile: 'اسمك وتاريخ ميلادك وجنسك ونوع ملفك',
    scope_address: 'عنوانك البريدي',
    scope_health: 'معرّفك الصحي (INS أو المعرّف المهني)',
    scope_offline_access: 'وصول يستمر بعد تسجيل خروجك',
    footerLabel: 'معلومات قانونية',
    footerLegalNotice: 'الإشعار القانوني',
    footerPrivacy: 'البيانات الشخصية',
    footerAccessibility: 'إمكانية الوصول: غير مطابق',
    footerContact: 'اتصل بنا',
  },
} as const;

type Key = keyof (typeof TEXT)['fr'];

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function t(language: Language, key: Key, values: Record<string, string> = {}): string {
  return escapeHtml(TEXT[language][key]).replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : `<bdi>${escapeHtml(values[name])}</bdi>`,
  );
}

/** The first of `ui_locales` (space-separated) then Accept-Language that the portal speaks. */
/** The first of the `ui_locales` (space-separated BCP 47 tags) the portal speaks, if any. */
export function supportedLocale(uiLocales: string): Language | undefined {
  for (const tag of uiLocales.split(' ')) {
    const language = asLanguage(tag.trim().slice(0, 2).toLowerCase());
    if (language) return language;
  }
  return undefined;
}

export function pageLanguage(uiLocales: unknown, acceptLanguage: string | undefined): Language {
  const candidates = [
    ...(typeof uiLocales === 'string' ? uiLocales.split(' ') : []),
    ...(acceptLanguage ?? '').split(',').map((part) => part.split(';')[0] ?? ''),
  ];
  for (const tag of candidates) {
    const language = asLanguage(tag.trim().slice(0, 2).toLowerCase());
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f5f5f5;color:#1a1a1a}
main{max-width:28rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.2)}
h1{font-size:1.5rem;margin-top:0}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}
button{font:inherit;padding:.6rem 1.2rem;border-radius:4px;border:1px solid #1565c0;cursor:pointer}
.primary{background:#1565c0;color:#fff}.secondary{background:#fff;color:#1565c0}
button:focus-visible,a:focus-visible{outline:3px solid #ff9800;outline-offset:2px}
footer{max-width:28rem;margin:0 auto 2rem;padding:0 2rem}footer ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;justify-content:center}
footer a{color:#0d47a1}`;

/** The links every page of the portal ends with (as the web client's footer). */
export const FOOTER_LINKS = [
  ['/legal-notice', 'footerLegalNotice'],
  ['/privacy', 'footerPrivacy'],
  ['/accessibility', 'footerAccessibility'],
  ['/contact', 'footerContact'],
] as const satisfies readonly (readonly [string, Key])[];

function footer(language: Language): string {
  const items = FOOTER_LINKS.map(
    ([href, key]) => `<li><a href="${href}">${t(language, key)}</a></li>`,
  ).join('');
  return `<footer><nav aria-label="${t(language, 'footerLabel')}"><ul>${items}</ul></nav></footer>`;
}

function page(language: Language, title: string, body: string): string {
  const dir = RTL_LANGUAGES.includes(language) ? 'rtl' : 'ltr';
  return `<!DOCTYPE html>
<html lang="${language}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title.replace(/<\/?bdi>/g, '')}</title>
<style>${STYLE}</style>
</head>
<body>
<main id="main-content">
<h1>${title}</h1>
${body}
</main>
${footer(language)}
</body>
</html>`;
}

/** RP-initiated logout: confirm, with the provider's form (it carries the anti-forgery value). */
export function logoutPage(language: Language, portal: string, form: string): string {
  return page(
    language,
    t(language, 'logoutTitle'),
    `<p>${t(language, 'logoutBody', { portal })}</p>
${form}
<div class="actions">
<button class="primary" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${t(language, 'logoutYes')}</button>
<button class="secondary" type="submit" form="op.logoutForm">${t(language, 'logoutNo')}</button>
</div>`,
  );
}

const SCOPE_KEYS: Record<string, Key> = {
  openid: 'scope_openid',
  email: 'scope_email',
  phone: 'scope_phone',
  profile: 'scope_profile',
  address: 'scope_address',
  health: 'scope_health',
  offline_access: 'scope_offline_access',
};

/** Consent for a platform that is not first-party: what it will know, allow or deny. */
export function consentPage(
  language: Language,
  platform: string,
  scopes: string[],
  action: string,
  token: string,
): string {
  const items = scopes
    .map((scope) => SCOPE_KEYS[scope])
    .filter((key): key is Key => key !== undefined)
    .map((key) => `<li>${t(language, key)}</li>`)
    .join('\n');
  return page(
    language,
    t(language, 'consentTitle', { platform }),
    `<p>${t(language, 'consentBody', { platform })}</p>
<ul>
${items}
</ul>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<div class="actions">
<button class="primary" type="submit" name="decision" value="allow">${t(language, 'consentAllow')}</button>
<button class="secondary" type="submit" name="decision" value="deny">${t(language, 'consentDeny')}</button>
</div>
</form>`,
  );
}
