import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { CodeInput } from '../../components/code-input';
import { FormError, FormStatus } from '../../components/form-error';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Page } from '../../components/page';
import { ResendButton } from '../../components/resend-button';
import { StepHeading } from '../../components/step-heading';
import { ApiError } from '../../lib/api-client';
import { useCountdown, type Countdown } from '../../lib/countdown';
import { dataAttributes } from '../../lib/data-attributes';
import { errorMessage, isolate } from '../../lib/error-message';
import { withFlowParams } from '../../lib/flow-params';
import {
  applyServerErrors,
  isCodeError,
  PASSWORD_CODE_FIELDS,
  retryAfterOf,
} from '../../lib/form-errors';
import {
  codeField,
  newPasswordFields,
  requiredText,
  type NewPasswordValues,
} from '../../lib/form-schemas';
import { registeredField, voidHandler } from '../../lib/handlers';
import { validationMessage } from '../../lib/validation-message';
import { useForgotPassword, type ForgotPasswordInput } from './api/forgot-password';
import { useResetPassword } from './api/reset-password';
import { useVerifyResetCode } from './api/verify-reset-code';

const requestSchema = z.object({
  username: requiredText(),
  channel: z.enum(['email', 'sms']),
});
const codeSchema = z.object({ code: codeField });

type Step = 'request' | 'code' | 'password';

const inputTestId = (id: string) => dataAttributes({ 'data-testid': id });

function hasCode(error: unknown, code: string): boolean {
  return error instanceof ApiError && error.code === code;
}

/** Step 1: who (e-mail, phone, INS or RPPS) and how (e-mail or SMS). */
function RequestStep({
  initial,
  onSent,
}: {
  initial: ForgotPasswordInput;
  onSent: (request: ForgotPasswordInput, retryAfterSeconds: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const forgot = useForgotPassword();
  const [failure, setFailure] = useState<unknown>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<z.input<typeof requestSchema>, unknown, z.output<typeof requestSchema>>({
    resolver: zodResolver(requestSchema),
    defaultValues: initial,
  });
  const username = register('username');

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    forgot.mutate(values, {
      onSuccess: (result) => onSent(values, result.retryAfterSeconds),
      onError: (error) => {
        if (!applyServerErrors(error, setError, ['username', 'channel'])) setFailure(error);
      },
    });
  });

  return (
    <>
      <Typography sx={{ mb: 3 }}>{t('security:forgotPassword.intro')}</Typography>
      <FormError>{failure ? errorMessage(i18n, failure) : null}</FormError>
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onSubmit)}
        aria-labelledby="page-title"
        sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        <TextField
          id="forgot-username"
          label={t('login:username')}
          helperText={validationMessage(i18n, errors.username?.message) ?? t('login:usernameHelp')}
          error={!!errors.username}
          required
          fullWidth
          autoComplete="username"
          {...registeredField(username)}
          slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false, maxLength: 180 } }}
        />
        <Controller
          name="channel"
          control={control}
          render={({ field }) => (
            <FormControl component="fieldset">
              <FormLabel component="legend" sx={{ mb: 1 }}>
                {t('security:forgotPassword.channel')}
              </FormLabel>
              <RadioGroup
                name={field.name}
                value={field.value}
                onChange={(_event, value) => field.onChange(value)}
              >
                <FormControlLabel
                  value="email"
                  control={<Radio slotProps={{ input: inputTestId('forgot-channel-email') }} />}
                  label={t('security:forgotPassword.byEmail')}
                />
                <FormControlLabel
                  value="sms"
                  control={<Radio slotProps={{ input: inputTestId('forgot-channel-sms') }} />}
                  label={t('security:forgotPassword.bySms')}
                />
              </RadioGroup>
            </FormControl>
          )}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={forgot.isPending}
          data-testid="forgot-send"
        >
          {t('security:forgotPassword.send')}
        </Button>
      </Box>
    </>
  );
}

/** Step 2: the code received; gives the reset token. */
function CodeStep({
  request,
  countdown,
  onVerified,
  onRestart,
}: {
  request: ForgotPasswordInput;
  countdown: Countdown;
  onVerified: (resetToken: string) => void;
  onRestart: () => void;
}) {
  const { t, i18n } = useTranslation();
  const forgot = useForgotPassword();
  const verify = useVerifyResetCode();
  const [again, setAgain] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const { control, handleSubmit, setError, setValue, setFocus } = useForm<
    z.input<typeof codeSchema>,
    unknown,
    z.output<typeof codeSchema>
  >({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } });

  const exhausted = hasCode(failure, 'too_many_trials');

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    verify.mutate(
      { ...request, code: values.code },
      {
        onSuccess: (result) => onVerified(result.resetToken),
        onError: (error) => {
          if (applyServerErrors(error, setError, ['code'])) return;
          setFailure(error);
          if (isCodeError(error)) {
            setValue('code', '');
            if (!hasCode(error, 'too_many_trials')) setFocus('code');
          }
        },
      },
    );
  });

  const resend = () => {
    setFailure(null);
    setAgain(false);
    forgot.mutate(request, {
      onSuccess: (result) => {
        setAgain(true);
        countdown.start(result.retryAfterSeconds);
      },
      onError: (error) => {
        const wait = retryAfterOf(error);
        if (wait) countdown.start(wait);
        setFailure(error);
      },
    });
  };

  const channelKey = request.channel === 'sms' ? 'sms' : 'email';
  return (
    <>
      <StepHeading focusOnMount>{t('security:forgotPassword.codeTitle')}</StepHeading>
      {!exhausted && (
        <FormStatus>
          {t(
            again
              ? `security:forgotPassword.sentAgain.${channelKey}`
              : `security:forgotPassword.sent.${channelKey}`,
            { username: isolate(request.username) },
          )}
        </FormStatus>
      )}
      <FormError>
        {exhausted
          ? t('security:forgotPassword.tooManyTrials')
          : failure
            ? errorMessage(i18n, failure)
            : null}
      </FormError>
      {!exhausted && (
        <Box
          component="form"
          noValidate
          onSubmit={voidHandler(onSubmit)}
          aria-label={t('security:forgotPassword.codeTitle')}
          sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
        >
          <Controller
            name="code"
            control={control}
            render={({ field, fieldState }) => (
              <CodeInput
                label={t('common:code.label')}
                helperText={t('common:code.help')}
                error={validationMessage(i18n, fieldState.error?.message)}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                autoFocus
              />
            )}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            loading={verify.isPending}
            data-testid="forgot-verify"
          >
            {t('security:forgotPassword.verify')}
          </Button>
        </Box>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 3 }}>
        {!exhausted && (
          <ResendButton
            onClick={resend}
            seconds={countdown.seconds}
            loading={forgot.isPending}
            data-testid="forgot-resend"
          />
        )}
        <Button
          variant={exhausted ? 'contained' : 'text'}
          onClick={onRestart}
          data-testid="forgot-restart"
        >
          {t('security:forgotPassword.restart')}
        </Button>
      </Box>
    </>
  );
}

/** Step 3: the new password, with the reset token. */
function PasswordStep({ resetToken, onRestart }: { resetToken: string; onRestart: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const reset = useResetPassword();
  const [failure, setFailure] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordFields),
    defaultValues: { password: '', passwordConfirmation: '' },
  });

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    reset.mutate(
      { resetToken, ...values },
      {
        onSuccess: () => {
          void navigate(withFlowParams('/security/forgot-password/success', search));
        },
        onError: (error) => {
          const fields = ['password', 'passwordConfirmation'] as const;
          if (!applyServerErrors(error, setError, fields, PASSWORD_CODE_FIELDS)) {
            setFailure(error);
          }
        },
      },
    );
  });

  return (
    <>
      <StepHeading focusOnMount>{t('security:forgotPassword.passwordTitle')}</StepHeading>
      <FormError>{failure ? errorMessage(i18n, failure) : null}</FormError>
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onSubmit)}
        aria-label={t('security:forgotPassword.passwordTitle')}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        <NewPasswordFields
          idPrefix="forgot"
          password={register('password')}
          confirmation={register('passwordConfirmation')}
          passwordError={errors.password?.message}
          confirmationError={errors.passwordConfirmation?.message}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={reset.isPending}
          data-testid="forgot-submit"
        >
          {t('security:forgotPassword.submit')}
        </Button>
      </Box>
      {hasCode(failure, 'link_expired') && (
        <Button onClick={onRestart} sx={{ mt: 2 }} data-testid="forgot-restart">
          {t('security:forgotPassword.restart')}
        </Button>
      )}
    </>
  );
}

/**
 * Forgotten password, in three steps: name the account and the channel (the answer never says
 * whether it exists), type the code received, choose the new password. A link an admin sent
 * (`?token=`) opens the last step directly.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  // A link an admin had e-mailed carries the reset token: straight to the new password.
  const [linkToken] = useState(() => new URLSearchParams(location.search).get('token') ?? '');
  const [step, setStep] = useState<Step>(linkToken ? 'password' : 'request');
  const [request, setRequest] = useState<ForgotPasswordInput>({
    username: '',
    channel: 'email',
  });
  const countdown = useCountdown();
  const [resetToken, setResetToken] = useState(linkToken);
  const restart = () => setStep('request');

  useEffect(() => {
    // The token leaves the address bar (history, screenshots) once read.
    const params = new URLSearchParams(location.search);
    if (!params.has('token')) return;
    params.delete('token');
    const rest = params.toString();
    void navigate({ search: rest ? `?${rest}` : '' }, { replace: true });
  }, [location.search, navigate]);

  return (
    <Page title={t('security:forgotPassword.title')}>
      {step === 'request' && (
        <RequestStep
          initial={request}
          onSent={(sent, seconds) => {
            setRequest(sent);
            countdown.start(seconds);
            setStep('code');
          }}
        />
      )}
      {step === 'code' && (
        <CodeStep
          request={request}
          countdown={countdown}
          onVerified={(token) => {
            setResetToken(token);
            setStep('password');
          }}
          onRestart={restart}
        />
      )}
      {step === 'password' && <PasswordStep resetToken={resetToken} onRestart={restart} />}
    </Page>
  );
}
