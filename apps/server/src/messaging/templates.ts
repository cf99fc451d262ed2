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

/** Every template in every language; a template missing a language fails to type-check. */
const TEMPLATES = {
  verification_code: {
    fr: {
      subject: (p) => `${p.brand} : votre code de vérification`,
      lines: (p) => [
        'Bonjour,',
        `Votre code de vérification est : ${ltr(p.code)}`,
        'Il est valable 10 minutes. Ne le communiquez à personne.',
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
        'إذا لم تطلب هذا الرمز، تجاهل هذه الرسالة.',
      ],
      sms: (p) => `${p.brand}: رمز التحقق الخاص بك هو ${p.code} (صالح 10 دقائق).`,
    },
  },
} satisfies Record<string, Record<Language, TemplateText>>;

export type TemplateName = keyof typeof TEMPLATES;
export const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];

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

/** Renders a template in a language and a brand. */
export function renderMessage(
  template: TemplateName,
  language: Language,
  brand: Brand,
  params: Params,
): RenderedMessage {
  const text: TemplateText = TEMPLATES[template][language];
  const all = { ...params, brand: BRAND_NAMES[brand] };
  const lines = text.lines(all);
  const dir = RTL_LANGUAGES.includes(language) ? 'rtl' : 'ltr';
  const colour = BRAND_COLORS[brand].primary;
  const body = lines
    .map((line) =>
      escapeHtml(line)
        .replaceAll(LTR_START, '<bdi dir="ltr"><strong>')
        .replaceAll(LTR_END, '</strong></bdi>'),
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
