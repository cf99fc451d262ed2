import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import TextField from '@mui/material/TextField';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  AccountState,
  parseErrorData,
  type CodeSent,
  type MfaData,
  type MfaProvider,
} from '@hygie/domain';
import { CodeInput } from '../../components/code-input';
import { FormError, FormStatus } from '../../components/form-error';
import { Page } from '../../components/page';
import { ResendButton } from '../../components/resend-button';
import { SignInStepMissing } from '../../components/sign-in-step-missing';
import { StepHeading } from '../../components/step-heading';
import { useCountdown } from '../../lib/countdown';
import { smsUnavailableKey } from '../../lib/sms-unavailable';
import { useSession } from '../../lib/current-user';
import { dataAttributes } from '../../lib/data-attributes';
import { errorMessage, isolate } from '../../lib/error-message';
import { applyServerErrors, isCodeError, retryAfterOf } from '../../lib/form-errors';
import { codeField, recoveryCodeField } from '../../lib/form-schemas';
import { voidHandler } from '../../lib/handlers';
import { isPendingStage } from '../../lib/sign-in';
import { validationMessage } from '../../lib/validation-message';
import { useMfaData } from './api/get-mfa';
import { useSendMfaCode } from './api/send-mfa-code';
import { useVerifyMfaCode } from './api/verify-mfa-code';

// The code's shape follows the method: 6 digits, or a recovery code (`XXXX-XXXX-XXXX`).
const codeFormSchema = z
  .object({ recovery: z.boolean(), code: z.string(), trustDevice: z.boolean() })
  .superRefine((values, ctx) => {
    const checked = (values.recovery ? recoveryCodeField : codeField).safeParse(values.code);
    if (!checked.success) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: checked.error.issues[0]?.message });
    }
  });
type CodeForm = z.input<typeof codeFormSchema>;

/** The MFA data the login error carried, when it has the expected shape. */
function mfaDataOf(data: unknown): MfaData | undefined {
  return parseErrorData('two_factor_authentication_required', data);
}

function smsAvailable(data: MfaData): boolean {
  return data.sms_enabled && data.two_factor_providers.includes('sms') && !!data.sms_hint;
}

const inputTestId = (id: string) => dataAttributes({ 'data-testid': id });

function MfaSteps({ initialData }: { initialData: MfaData | undefined }) {
  const { t, i18n } = useTranslation();
  const query = useMfaData(true);
  const data = query.data ?? initialData;
  const send = useSendMfaCode();
  const verify = useVerifyMfaCode();
  const countdown = useCountdown();
  const [step, setStep] = useState<'choose' | 'code'>('choose');
  const [provider, setProvider] = useState<MfaProvider | null>(null);
  const [sent, setSent] = useState<{ result: CodeSent; again: boolean } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const { control, handleSubmit, setError, setValue, setFocus } = useForm<CodeForm>({
    resolver: zodResolver(codeFormSchema),
    defaultValues: { recovery: false, code: '', trustDevice: false },
  });

  if (!data) {
    if (query.isError && !isPendingStage(query.error)) {
      return <FormError>{errorMessage(i18n, query.error)}</FormError>;
    }
    return <Typography role="status">{t('common:loading')}</Typography>;
  }
  const sms = smsAvailable(data);
  const totp = data.two_factor_providers.includes('totp');
  const recovery = data.two_factor_providers.includes('recovery_code');
  // The authenticator app first when enrolled: no message to wait for.
  const wanted: MfaProvider = provider ?? (totp ? 'totp' : 'email');
  const chosen: MfaProvider =
    (wanted === 'sms' && !sms) ||
    (wanted === 'totp' && !totp) ||
    (wanted === 'recovery_code' && !recovery)
      ? 'email'
      : wanted;
  // Codes the user has at hand (the app's, a recovery code): nothing is sent.
  const nothingSent = chosen === 'totp' || chosen === 'recovery_code';
  const codeTitle = {
    totp: 'security:mfa.appCodeTitle',
    recovery_code: 'security:mfa.recoveryTitle',
    email: 'security:mfa.codeTitle',
    sms: 'security:mfa.codeTitle',
  }[chosen];

  const sendCode = (again: boolean) => {
    setFailure(null);
    setSent(null);
    if (chosen === 'totp' || chosen === 'recovery_code') return;
    send.mutate(chosen, {
      onSuccess: (result) => {
        setSent({ result, again });
        countdown.start(result.retryAfterSeconds);
        setStep('code');
      },
      onError: (error) => {
        if (isPendingStage(error)) return;
        const wait = retryAfterOf(error);
        if (wait) {
          // A code was sent moments ago: it can still be typed.
          countdown.start(wait);
          setStep('code');
        }
        setFailure(error);
      },
    });
  };

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    verify.mutate(
      { provider: chosen, code: values.code, trustDevice: values.trustDevice },
      {
        onError: (error) => {
          if (isPendingStage(error)) return;
          if (applyServerErrors(error, setError, ['code'])) return;
          setFailure(error);
          if (isCodeError(error)) {
            setValue('code', '');
            setFocus('code');
          }
        },
      },
    );
  });

  const failureText = failure ? errorMessage(i18n, failure) : null;

  if (step === 'choose') {
    return (
      <>
        <Typography sx={{ mb: 3 }}>{t('security:mfa.intro')}</Typography>
        <FormError>{failureText}</FormError>
        <FormControl component="fieldset" sx={{ mb: 3 }}>
          <FormLabel component="legend" sx={{ mb: 1 }}>
            {t('security:mfa.providerLabel')}
          </FormLabel>
          <RadioGroup
            name="mfa-provider"
            value={chosen}
            onChange={(_event, value) =>
              setProvider(data.two_factor_providers.find((p) => p === value) ?? 'email')
            }
          >
            {totp && (
              <FormControlLabel
                value="totp"
                control={<Radio slotProps={{ input: inputTestId('mfa-provider-totp') }} />}
                label={t('security:mfa.byApp')}
              />
            )}
            <FormControlLabel
              value="email"
              control={<Radio slotProps={{ input: inputTestId('mfa-provider-email') }} />}
              label={t('security:mfa.byEmail', { hint: isolate(data.email_hint) })}
            />
            <FormControlLabel
              value="sms"
              disabled={!sms}
              control={
                <Radio
                  slotProps={{
                    input: {
                      ...inputTestId('mfa-provider-sms'),
                      'aria-describedby': sms ? undefined : 'mfa-sms-unavailable',
                    },
                  }}
                />
              }
              label={
                sms && data.sms_hint
                  ? t('security:mfa.bySms', { hint: isolate(data.sms_hint) })
                  : t('security:mfa.bySmsPlain')
              }
            />
            {recovery && (
              <FormControlLabel
                value="recovery_code"
                control={<Radio slotProps={{ input: inputTestId('mfa-provider-recovery') }} />}
                label={t('security:mfa.byRecoveryCode')}
              />
            )}
          </RadioGroup>
          {!sms && (
            <FormHelperText id="mfa-sms-unavailable" sx={{ mx: 0 }}>
              {t(smsUnavailableKey(data))}
            </FormHelperText>
          )}
        </FormControl>
        <Button
          variant="contained"
          size="large"
          fullWidth
          loading={send.isPending}
          onClick={() => {
            setValue('recovery', chosen === 'recovery_code');
            setValue('code', '');
            if (nothingSent) {
              setFailure(null);
              setStep('code');
            } else sendCode(false);
          }}
          data-testid="mfa-send"
        >
          {t(nothingSent ? 'security:mfa.useApp' : 'security:mfa.send')}
        </Button>
      </>
    );
  }

  return (
    <>
      <StepHeading focusOnMount>{t(codeTitle)}</StepHeading>
      <FormStatus>
        {sent &&
          t(sent.again ? 'common:code.sentAgainTo' : 'common:code.sentTo', {
            destination: isolate(sent.result.destination),
          })}
      </FormStatus>
      <FormError>{failureText}</FormError>
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onSubmit)}
        aria-label={t(codeTitle)}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        <Controller
          name="code"
          control={control}
          render={({ field, fieldState }) =>
            chosen === 'recovery_code' ? (
              <TextField
                id="mfa-recovery-code"
                label={t('security:mfa.recoveryLabel')}
                helperText={
                  validationMessage(i18n, fieldState.error?.message) ??
                  t('security:mfa.recoveryHelp')
                }
                error={fieldState.error !== undefined}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                autoFocus
                fullWidth
                autoComplete="one-time-code"
                slotProps={{
                  htmlInput: {
                    dir: 'ltr',
                    spellCheck: false,
                    autoCapitalize: 'characters',
                    'data-testid': 'mfa-recovery-code',
                  },
                }}
              />
            ) : (
              <CodeInput
                label={t('common:code.label')}
                helperText={t(chosen === 'totp' ? 'security:mfa.appCodeHelp' : 'common:code.help')}
                error={validationMessage(i18n, fieldState.error?.message)}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                autoFocus
              />
            )
          }
        />
        <Controller
          name="trustDevice"
          control={control}
          render={({ field }) => (
            <Box>
              <FormControlLabel
                control={
                  <Checkbox
                    id="mfa-trust-device"
                    checked={field.value}
                    onChange={(_event, checked) => field.onChange(checked)}
                    onBlur={field.onBlur}
                    slotProps={{
                      input: { ref: field.ref, 'aria-describedby': 'mfa-trust-device-help' },
                    }}
                  />
                }
                label={t('security:mfa.trustDevice')}
              />
              <FormHelperText id="mfa-trust-device-help" sx={{ mx: 0 }}>
                {t('security:mfa.trustDeviceHelp')}
              </FormHelperText>
            </Box>
          )}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={verify.isPending}
          data-testid="mfa-submit"
        >
          {t('security:mfa.submit')}
        </Button>
      </Box>
      {nothingSent ? (
        <Box sx={{ mt: 4, pt: 3, borderTop: 1, borderColor: 'divider' }}>
          <Button
            onClick={() => {
              setFailure(null);
              setStep('choose');
            }}
            data-testid="mfa-other-method"
          >
            {t('security:mfa.otherMethod')}
          </Button>
        </Box>
      ) : (
        <Box
          component="section"
          aria-labelledby="mfa-not-received"
          sx={{ mt: 4, pt: 3, borderTop: 1, borderColor: 'divider' }}
        >
          <Typography id="mfa-not-received" component="h3" variant="subtitle1" sx={{ mb: 1 }}>
            {t('security:mfa.notReceived')}
          </Typography>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {t(chosen === 'sms' ? 'security:mfa.notReceivedSms' : 'security:mfa.notReceivedEmail')}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
            <ResendButton
              onClick={() => sendCode(true)}
              seconds={countdown.seconds}
              loading={send.isPending}
              data-testid="mfa-resend"
            />
            <Button
              onClick={() => {
                setFailure(null);
                setSent(null);
                setStep('choose');
              }}
            >
              {t('security:mfa.otherMethod')}
            </Button>
          </Box>
        </Box>
      )}
    </>
  );
}

/** Second factor (sign-in stage 1): choose e-mail or SMS, receive a code, type it. */
export default function MfaPage() {
  const { t } = useTranslation();
  const session = useSession();
  const active = session.state === AccountState.MFA_REQUIRED;
  return (
    <Page title={t('security:mfa.title')}>
      {active ? <MfaSteps initialData={mfaDataOf(session.stateData)} /> : <SignInStepMissing />}
    </Page>
  );
}
