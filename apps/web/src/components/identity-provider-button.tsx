import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { IdpIntent, RequiredLevel } from '@hygie/domain';
import { usePublicConfig } from '../lib/config';

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

/**
 * The anatomy both providers' charters share: the logo at the start, then two lines — the action
 * ("S’identifier avec", "Se connecter avec") and the provider's name in bold. The space between
 * the two spans keeps the accessible name the visible text, read as one phrase.
 */
function ConnectLabel({ login, brand }: { login: string; brand: string }) {
  return (
    <>
      <Box component="span" sx={{ fontSize: '1.0625em', lineHeight: 1, whiteSpace: 'nowrap' }}>
        {login}
      </Box>{' '}
      <Box
        component="span"
        sx={{ fontSize: '1.125em', fontWeight: 700, lineHeight: 1, whiteSpace: 'nowrap' }}
      >
        {brand}
      </Box>
    </>
  );
}

/** What both official buttons are: a link laid out as the charters draw it (logo, two lines). */
const connectButton = {
  position: 'relative',
  display: 'inline-flex',
  flexDirection: 'column',
  alignItems: 'flex-start',
  justifyContent: 'center',
  gap: 0.5,
  minHeight: '3.5rem',
  boxSizing: 'border-box',
  padding: '0.625em 0.75em 0.625em 4em',
  fontSize: '1rem',
  textDecoration: 'none',
  borderRadius: 0,
  '&:focus-visible': { outlineWidth: 2, outlineStyle: 'solid', outlineOffset: 2 },
  '@media (forced-colors: active)': { border: '1px solid' },
} as const;

/** The logo's place at the start of the button (mirrored to the right in Arabic). */
const logoSlot = {
  position: 'absolute',
  top: '50%',
  left: '0.75em',
  width: '2.5em',
  height: '3em',
  marginTop: '-1.5em',
} as const;

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
  const { t } = useTranslation();
  const about = plus
    ? t('security:login.idp.franceconnect.aboutPlus')
    : t('security:login.idp.franceconnect.about');
  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1 }}
      data-testid="idp-group-franceconnect"
    >
      <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
        {t('security:login.idp.franceconnect.explanation')}
      </Typography>
      <Box
        component="a"
        href={href}
        data-testid="idp-franceconnect"
        data-variant={plus ? 'plus' : 'default'}
        sx={{
          ...connectButton,
          ...(plus ? { paddingRight: '3em' } : {}),
          backgroundColor: FRANCECONNECT_COLORS.background,
          color: FRANCECONNECT_COLORS.text,
          '&:hover': { backgroundColor: FRANCECONNECT_COLORS.hover },
          '&:active': { backgroundColor: FRANCECONNECT_COLORS.active },
          '&:focus-visible': {
            outlineWidth: 2,
            outlineStyle: 'solid',
            outlineOffset: 2,
            outlineColor: FRANCECONNECT_COLORS.focus,
          },
        }}
      >
        <Box component="img" src="/providers/franceconnect.svg" alt="" sx={logoSlot} />
        <ConnectLabel login={t('security:login.idp.franceconnect.login')} brand="FranceConnect" />
        {plus && (
          <Box
            component="span"
            sx={{
              position: 'absolute',
              right: '0.25em',
              bottom: 0,
              fontSize: '3em',
              fontWeight: 700,
              lineHeight: 1,
              transform: 'translate(5%, -17%)',
            }}
          >
            +
          </Box>
        )}
      </Box>
      <Link
        href={ABOUT_FRANCECONNECT[plus ? 'plus' : 'default']}
        target="_blank"
        rel="noopener noreferrer"
        title={t('security:login.idp.newWindow', { name: about })}
        sx={{ color: FRANCECONNECT_COLORS.background }}
      >
        {about}
      </Link>
    </Box>
  );
}

/**
 * Pro Santé Connect's button as the ANS's charter lays it out: the mark at the start, "Se connecter
 * avec Pro Santé Connect". The ANS's own artwork (the e-CPS logo) is not published where it could
 * be vendored: the brand's colours and a neutral mark stand in (docs/identity-providers.md).
 */
function ProSanteConnectButton({ href }: { href: string }) {
  const { t } = useTranslation();
  return (
    <Box
      component="a"
      href={href}
      data-testid="idp-psc"
      sx={(theme) => ({
        ...connectButton,
        backgroundColor: theme.palette.primary.main,
        color: theme.palette.primary.contrastText,
        '&:hover': { backgroundColor: theme.palette.primary.dark },
        '&:focus-visible': {
          outlineWidth: 2,
          outlineStyle: 'solid',
          outlineOffset: 2,
          outlineColor: theme.palette.primary.main,
        },
      })}
    >
      <Box component="span" aria-hidden="true" sx={{ ...logoSlot, color: 'primary.main' }}>
        <PscMark />
      </Box>
      <ConnectLabel login={t('security:login.idp.psc.login')} brand="Pro Santé Connect" />
    </Box>
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
 * followed with Enter; its accessible name is its visible text.
 */
export function IdentityProviderButton({
  provider,
  target,
  intent,
  level,
}: IdentityProviderButtonProps) {
  const { t } = useTranslation();
  const plus = usePublicConfig()?.franceConnectPlus ?? false;
  const href = identityProviderStartUrl(provider, {
    target,
    ...(intent && { intent }),
    ...(level && { level }),
  });
  if (provider === 'franceconnect') return <FranceConnectButton href={href} plus={plus} />;
  if (provider === 'psc') {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center' }}>
        <ProSanteConnectButton href={href} />
      </Box>
    );
  }
  return (
    <Button href={href} variant="outlined" size="large" fullWidth data-testid={`idp-${provider}`}>
      {t('security:login.idp.other', { name: provider })}
    </Button>
  );
}
