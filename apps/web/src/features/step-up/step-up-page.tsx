import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import KeyIcon from '@mui/icons-material/Key';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import {
  REQUIRED_LEVELS,
  safeTargetUri,
  type AssuranceMeans,
  type RequiredLevel,
} from '@hygie/domain';
import { CodeInput } from '../../components/code-input';
import { FormError } from '../../components/form-error';
import { IdentityProviderButton } from '../../components/identity-provider-button';
import { Page } from '../../components/page';
import { ASSURANCE_QUERY_KEY, LEVEL_ADJECTIVES, useAssurance } from '../../lib/assurance';
import { biometricErrorMessage } from '../../lib/biometric-messages';
import { isPasskeyCancelled, passkeysSupported } from '../../lib/biometrics';
import { browser } from '../../lib/browser';
import { errorMessage, isolate } from '../../lib/error-message';
import { applyServerErrors, isCodeError } from '../../lib/form-errors';
import { codeField } from '../../lib/form-schemas';
import { voidHandler } from '../../lib/handlers';
import { useServices } from '../../lib/services';
import { validationMessage } from '../../lib/validation-message';
import { usePlatformName } from '../../lib/platform-name';
import { usePasskeyStepUp, useTotpStepUp } from './api/step-up';

const codeFormSchema = z.object({ code: codeField });
type CodeForm = z.input<typeof codeFormSchema>;

/** Where the user enrols a means: the devices page holds the app, the passkeys and the links. */
const DEVICES_PATH = '/devices';

/**
 * Where the step-up was asked from: a platform's sign-in (an OIDC interaction of the portal, which
 * the cancel aborts: the platform then hears `unmet_authentication_requirements`), or a page of
 * the portal. Only a target the login screen would follow is kept.
 */
export function stepUpTarget(
  targetUri: string | null,
  origin: string,
): { target: string | null; abort: string | null } {
  const target = safeTargetUri(targetUri, origin);
  if (!target) return { target: null, abort: null };
  const url = new URL(target);
  if (!url.pathname.startsWith('/oidc/interaction/')) return { target, abort: null };
  return { target, abort: `${url.origin}${url.pathname.replace(/\/$/, '')}/abort` };
}

/** The authenticator app's code, in the six digit fields of every code of the portal. */
function TotpMeans({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const verify = useTotpStepUp();
  const [failure, setFailure] = useState<unknown>(null);
  const { control, handleSubmit, setError, setValue, setFocus } = useForm<CodeForm>({
    resolver: zodResolver(codeFormSchema),
    defaultValues: { code: '' },
  });
  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    verify.mutate(values.code, {
      onSuccess: onDone,
      onError: (error) => {
        if (applyServerErrors(error, setError, ['code'])) return;
        setFailure(error);
        if (isCodeError(error)) {
          setValue('code', '');
          setFocus('code');
        }
      },
    });
  });
  return (
    <Box component="section" aria-labelledby="step-up-totp-title" data-testid="step-up-totp">
      <Typography id="step-up-totp-title" component="h2" variant="h6" sx={{ mb: 2 }}>
        {t('security:stepUp.totpTitle')}
      </Typography>
      <FormError>{failure ? errorMessage(i18n, failure) : null}</FormError>
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onSubmit)}
        aria-labelledby="step-up-totp-title"
        sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        <Controller
          name="code"
          control={control}
          render={({ field, fieldState }) => (
            <CodeInput
              label={t('common:code.label')}
              helperText={t('security:mfa.appCodeHelp')}
              error={validationMessage(i18n, fieldState.error?.message)}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
            />
          )}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={verify.isPending}
          data-testid="step-up-totp-submit"
        >
          {t('security:stepUp.totpSubmit')}
        </Button>
      </Box>
    </Box>
  );
}

/** The browser's passkey prompt (user verification: a substantial level). */
function PasskeyMeans({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const passkey = usePasskeyStepUp();
  const cancelled = passkey.isError && isPasskeyCancelled(passkey.error);
  const failure = passkey.isError && !cancelled ? biometricErrorMessage(i18n, passkey.error) : null;
  return (
    <Box component="section" aria-labelledby="step-up-passkey-title" data-testid="step-up-passkey">
      <Typography id="step-up-passkey-title" component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('security:stepUp.passkeyTitle')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('security:stepUp.passkeyText')}
      </Typography>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} data-testid="form-error">
          {failure}
        </Alert>
      )}
      {cancelled && (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          {t('biometrics:login.passkeyCancelled')}
        </Alert>
      )}
      <Button
        variant="outlined"
        size="large"
        fullWidth
        startIcon={<KeyIcon aria-hidden="true" />}
        loading={passkey.isPending}
        onClick={() => passkey.mutate(undefined, { onSuccess: onDone })}
        data-testid="step-up-passkey-button"
      >
        {t('security:stepUp.passkeyButton')}
      </Button>
    </Box>
  );
}

/** Why a step-up with a provider came back here (`?idp_error=`, docs/api.md). */
const PROVIDER_ERRORS = {
  cancelled: 'security:stepUp.providerErrors.cancelled',
  refused: 'security:stepUp.providerErrors.refused',
  not_linked: 'security:stepUp.providerErrors.not_linked',
  identity_provider_unavailable: 'errors:identity_provider_unavailable',
} as const;

function ProviderOutcome() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = params.get('idp_error');
  const key = Object.entries(PROVIDER_ERRORS).find(([known]) => known === code)?.[1];
  if (!key) return null;
  return (
    <Alert
      severity={code === 'cancelled' ? 'info' : 'error'}
      role={code === 'cancelled' ? 'status' : 'alert'}
      data-testid="step-up-idp-error"
    >
      {t(key)}
    </Alert>
  );
}

/** A means to set up, as a link to where it is set up. */
function EnrolmentLink({ means }: { means: AssuranceMeans }) {
  const { t } = useTranslation();
  const label =
    means.kind === 'totp'
      ? t('security:stepUp.enrolTotp')
      : means.kind === 'passkey'
        ? t('security:stepUp.enrolPasskey')
        : t('security:stepUp.enrolProvider', { name: isolate(means.name) });
  return (
    <li>
      <Link component={RouterLink} to={DEVICES_PATH} data-testid={`step-up-enrol-${means.kind}`}>
        {label}
      </Link>
    </li>
  );
}

/** No means of the user reaches the level: how to set one up, never a dead end. */
function Enrolment({
  level,
  enrolment,
  retry,
  retrying,
}: {
  level: RequiredLevel;
  enrolment: AssuranceMeans[];
  retry: () => void;
  retrying: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Box
      component="section"
      aria-labelledby="step-up-enrol-title"
      data-testid="step-up-enrolment"
      sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Typography id="step-up-enrol-title" component="h2" variant="h6">
        {t('security:stepUp.enrolTitle')}
      </Typography>
      <Typography>
        {t('security:stepUp.enrolText', { level: t(LEVEL_ADJECTIVES[level]) })}
      </Typography>
      {enrolment.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 3, display: 'grid', gap: 1 }}>
          {enrolment.map((means) => (
            <EnrolmentLink
              key={means.kind === 'provider' ? `provider-${means.id}` : means.kind}
              means={means}
            />
          ))}
        </Box>
      )}
      <Typography variant="body2" color="text.secondary">
        {t('security:stepUp.enrolThen')}
      </Typography>
      <Box>
        <Button variant="outlined" onClick={retry} loading={retrying} data-testid="step-up-retry">
          {t('security:stepUp.retry')}
        </Button>
      </Box>
    </Box>
  );
}

function StepUp({ level }: { level: RequiredLevel }) {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const assurance = useAssurance(level);
  const platform = usePlatformName(params.get('client_id'));
  const [passkeys] = useState(() => passkeysSupported());
  const { target, abort } = stepUpTarget(params.get('target_uri'), window.location.origin);
  const platformName = platform.data?.name ?? null;
  const levelWords = t(LEVEL_ADJECTIVES[level]);

  // Reached: on to where the level was asked for (the platform's sign-in goes on, the page of the
  // account area answers now), or home.
  const proceed = () => {
    void queryClient.invalidateQueries({ queryKey: ASSURANCE_QUERY_KEY });
    if (target) browser.assign(target);
    else void navigate('/', { replace: true });
  };

  const required = platformName
    ? t('security:stepUp.requiredByPlatform', {
        platform: isolate(platformName),
        level: levelWords,
      })
    : abort
      ? t('security:stepUp.requiredPlatform', { level: levelWords })
      : t('security:stepUp.requiredAccount', { level: levelWords });

  const data = assurance.data;
  const means = (data?.means ?? []).filter((m) => m.kind !== 'passkey' || passkeys);
  const enrolment = (data?.enrolment ?? []).filter((m) => m.kind !== 'passkey' || passkeys);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <ProviderOutcome />
      <Typography data-testid="step-up-required" sx={{ fontWeight: 500 }}>
        {required}
      </Typography>
      {assurance.isPending && <Typography role="status">{t('common:loading')}</Typography>}
      {assurance.isError && <FormError>{errorMessage(i18n, assurance.error)}</FormError>}
      {data && (
        <Typography data-testid="step-up-current">
          {t('security:stepUp.current', { level: t(LEVEL_ADJECTIVES[data.level]) })}
        </Typography>
      )}
      {data?.reached && (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Alert severity="success" role="status">
            {t('security:stepUp.reached')}
          </Alert>
          <Button variant="contained" size="large" onClick={proceed} data-testid="step-up-continue">
            {t('security:stepUp.continue')}
          </Button>
        </Box>
      )}
      {data && !data.reached && means.length > 0 && (
        <>
          <Typography>{t('security:stepUp.chooseMeans')}</Typography>
          {means.map((m) =>
            m.kind === 'totp' ? (
              <TotpMeans key="totp" onDone={proceed} />
            ) : m.kind === 'passkey' ? (
              <PasskeyMeans key="passkey" onDone={proceed} />
            ) : (
              <IdentityProviderButton
                key={`provider-${m.id}`}
                provider={m.id}
                target={target}
                intent="step_up"
                level={level}
              />
            ),
          )}
        </>
      )}
      {data && !data.reached && means.length === 0 && (
        <Enrolment
          level={level}
          enrolment={enrolment}
          retry={() => void assurance.refetch()}
          retrying={assurance.isFetching}
        />
      )}
      <Box sx={{ pt: 3, borderTop: 1, borderColor: 'divider' }}>
        {abort ? (
          <Button href={abort} data-testid="step-up-cancel">
            {platformName
              ? t('security:stepUp.cancelToPlatform', { platform: isolate(platformName) })
              : t('security:stepUp.cancelPlatform')}
          </Button>
        ) : (
          <Button component={RouterLink} to="/" data-testid="step-up-cancel">
            {t('security:stepUp.cancel')}
          </Button>
        )}
      </Box>
    </Box>
  );
}

/**
 * The step-up screen (`?level=&target_uri=`): a platform, or the account area, needs a higher
 * level than the session's. It names the level, offers the user's means that reach it (the
 * authenticator app, a passkey, a provider), or explains how to set one up; once reached, on to
 * `target_uri`. Cancelling a platform's sign-in tells the platform the level was not met.
 */
export default function StepUpPage() {
  const { t } = useTranslation();
  const { assuranceRequired } = useServices();
  const [params] = useSearchParams();
  const level = REQUIRED_LEVELS.find((known) => known === params.get('level')) ?? null;

  // Shown: the guard no longer needs to bring the user here.
  useEffect(() => assuranceRequired.set(null), [assuranceRequired]);

  return (
    <Page title={t('security:stepUp.title')}>
      {level ? (
        <StepUp level={level} />
      ) : (
        <>
          <FormError>{t('security:stepUp.invalidLink')}</FormError>
          <Button component={RouterLink} to="/" data-testid="step-up-cancel">
            {t('common:actions.backHome')}
          </Button>
        </>
      )}
    </Page>
  );
}
