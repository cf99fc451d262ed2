import type { CSSProperties } from 'react';
import type { IdpIntent, RequiredLevel } from '@hygie/domain';
import { useEnvironment, useTexts } from '../lib/environment';
import { directionOf } from '../lib/language';
import { buttonClasses } from './plain/button';

/**
 * Where a provider's button starts the sign-in: a full navigation to the server, which redirects
 * to the provider and back (docs/identity-providers.md), then to the page asked for, if any.
 * Started to register, an identity linked to no account lands in the registration pre-filled
 * with it; started to step up, the session's level rises to `level` with the provider's sign-in.
 */
export function identityProviderStartUrl(
  provider: string,
  options: { target?: string | null; intent?: IdpIntent; level?: RequiredLevel } = {},
): string {
  const query = new URLSearchParams();
  if (options.target) query.set('target_uri', options.target);
  if (options.intent === 'register' || options.intent === 'step_up') {
    query.set('intent', options.intent);
  }
  if (options.intent === 'step_up' && options.level) query.set('level', options.level);
  const search = query.toString();
  return `/api/idp/${encodeURIComponent(provider)}/start${search ? `?${search}` : ''}`;
}

/** FranceConnect's button colours (DSFR `fr-connect`: blue-france, its hover and active tints). */
export const FRANCECONNECT_COLORS = {
  background: '#000091',
  text: '#f5f5fe',
  hover: '#1212ff',
  active: '#2323ff',
  focus: '#0a76f6',
} as const;

/** FranceConnect's colours as the custom properties app/base.css draws its button with. */
const FRANCECONNECT_STYLE: CSSProperties & Record<`--hy-fc-${string}`, string> = {
  '--hy-fc-background': FRANCECONNECT_COLORS.background,
  '--hy-fc-text': FRANCECONNECT_COLORS.text,
  '--hy-fc-hover': FRANCECONNECT_COLORS.hover,
  '--hy-fc-active': FRANCECONNECT_COLORS.active,
  '--hy-fc-focus': FRANCECONNECT_COLORS.focus,
};

/**
 * The anatomy both providers' charters share: the logo at the start, then two lines — the action
 * ("S’identifier avec", "Se connecter avec") and the provider's name in bold. The space between
 * the two spans keeps the accessible name the visible text, read as one phrase.
 */
function ConnectLabel({ login, brand }: { login: string; brand: string }) {
  return (
    <>
      <span className="hy-connect-login">{login}</span>{' '}
      <span className="hy-connect-brand">{brand}</span>
    </>
  );
}

/**
 * The logo's place at the start of the button: on the left, on the right in Arabic. Written on
 * the element (the rest of the buttons' look is app/base.css, `hy-connect`): the side follows the
 * language's direction.
 */
function logoSlot(direction: 'ltr' | 'rtl'): CSSProperties {
  return direction === 'rtl' ? { right: '0.75em' } : { left: '0.75em' };
}

/** Where each variant's "Qu’est-ce que …" link leads (the DSFR's addresses). */
const ABOUT_FRANCECONNECT = {
  default: 'https://franceconnect.gouv.fr/',
  plus: 'https://franceconnect.gouv.fr/france-connect-plus',
} as const;

/**
 * FranceConnect's official button (DSFR `fr-connect`): the FranceConnect logo, "S’identifier avec
 * FranceConnect" on blue-france, and below it the "Qu’est-ce que FranceConnect ?" link, opening a
 * new window (said by its title, as the DSFR does). FranceConnect+ (`fr-connect--plus`): a large
 * "+" after the name — in the text, not drawn by CSS, so the name says it too — and its own link.
 */
function FranceConnectButton({ href, plus }: { href: string; plus: boolean }) {
  const { t, language } = useTexts();
  const direction = directionOf(language);
  const about = plus ? t('login:idp.franceconnect.aboutPlus') : t('login:idp.franceconnect.about');
  return (
    <div
      className="hy-connect-group"
      style={FRANCECONNECT_STYLE}
      data-testid="idp-group-franceconnect"
    >
      <p className="hy-text hy-body2 hy-connect-explanation">
        {t('login:idp.franceconnect.explanation')}
      </p>
      <a
        href={href}
        data-testid="idp-franceconnect"
        data-variant={plus ? 'plus' : 'default'}
        className={plus ? 'hy-connect hy-connect-fc hy-connect-plus' : 'hy-connect hy-connect-fc'}
      >
        <img
          src="/providers/franceconnect.svg"
          alt=""
          className="hy-connect-logo"
          style={logoSlot(direction)}
        />
        <ConnectLabel login={t('login:idp.franceconnect.login')} brand="FranceConnect" />
        {plus && <span className="hy-connect-plus-sign">+</span>}
      </a>
      <a
        href={ABOUT_FRANCECONNECT[plus ? 'plus' : 'default']}
        target="_blank"
        rel="noopener noreferrer"
        title={t('login:idp.newWindow', { name: about })}
        className="hy-link hy-connect-about"
      >
        {about}
      </a>
    </div>
  );
}

/**
 * Pro Santé Connect's button as the ANS's charter lays it out: the mark at the start, "Se connecter
 * avec Pro Santé Connect". The ANS's own artwork (the e-CPS logo) is not published where it could
 * be vendored: the brand's colours and a neutral mark stand in (docs/identity-providers.md).
 */
function ProSanteConnectButton({ href }: { href: string }) {
  const { t, language } = useTexts();
  return (
    <a href={href} data-testid="idp-psc" className="hy-connect hy-connect-psc">
      <span
        aria-hidden="true"
        className="hy-connect-logo hy-connect-psc-mark"
        style={logoSlot(directionOf(language))}
      >
        <PscMark />
      </span>
      <ConnectLabel login={t('login:idp.psc.login')} brand="Pro Santé Connect" />
    </a>
  );
}

/** A neutral mark in the place of the e-CPS logo: a white shield with a medical cross. */
function PscMark() {
  return (
    <svg viewBox="0 0 40 48" width="100%" height="100%" focusable="false">
      <path d="M20 4 5 10v12c0 10.2 6.4 19.1 15 22 8.6-2.9 15-11.8 15-22V10L20 4Z" fill="#FFFFFF" />
      <path d="M17 15h6v6h6v6h-6v6h-6v-6h-6v-6h6z" fill="currentColor" />
    </svg>
  );
}

export interface IdentityProviderButtonProps {
  /** The provider's id, as the public configuration lists it. */
  provider: string;
  /** The page asked for (kept through the sign-in). */
  target?: string | null;
  /** `register` on the registration choice screen, `step_up` on the step-up screen. */
  intent?: IdpIntent;
  /** The level a step-up reaches for. */
  level?: RequiredLevel;
}

/**
 * A provider's sign-in button: the official ones of FranceConnect and Pro Santé Connect, or a
 * plain one naming another provider. A real link (the sign-in is a navigation), reached by Tab,
 * followed with Enter; its accessible name is its visible text. Drawn without MUI (app/base.css):
 * the login page shows them before MUI is loaded.
 */
export function IdentityProviderButton({
  provider,
  target,
  intent,
  level,
}: IdentityProviderButtonProps) {
  const { texts, usePublicConfig } = useEnvironment();
  const { t } = texts;
  const plus = usePublicConfig()?.franceConnectPlus ?? false;
  const href = identityProviderStartUrl(provider, {
    target,
    ...(intent && { intent }),
    ...(level && { level }),
  });
  if (provider === 'franceconnect') return <FranceConnectButton href={href} plus={plus} />;
  if (provider === 'psc') {
    return (
      <div className="hy-connect-center">
        <ProSanteConnectButton href={href} />
      </div>
    );
  }
  return (
    <a
      href={href}
      className={buttonClasses({ variant: 'outlined', size: 'large', fullWidth: true })}
      data-testid={`idp-${provider}`}
    >
      {t('login:idp.other', { name: provider })}
    </a>
  );
}
