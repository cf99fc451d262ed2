import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { z } from 'zod';
import { AccountState, CODES, type CodeSent } from '@hygie/domain';
import { CodeInput } from '../../components/code-input';
import { FormError, FormStatus } from '../../components/form-error';
import { Page } from '../../components/page';
import { ResendButton } from '../../components/resend-button';
import { useCountdown } from '../../lib/countdown';
import { useSession } from '../../lib/current-user';
import { errorMessage, isolate } from '../../lib/error-message';
import { applyServerErrors, isCodeError, retryAfterOf } from '../../lib/form-errors';
import { codeField, emailField } from '../../lib/form-schemas';
import { registeredField, voidHandler } from '../../lib/handlers';
import { isPendingStage } from '../../lib/sign-in';
import { validationMessage } from '../../lib/validation-message';
import { useVerificationStatus } from './api/get-verification';
import { useSendEmailCode } from './api/send-email-code';
import { useVerifyEmailCode } from './api/verify-email-code';

const anonymousSchema = z.object({ email: emailField, code: codeField });
const sessionSchema = z.object({ email: z.string(), code: codeField });
type EmailForm = z.input<typeof anonymousSchema>;

/**
 * E-mail verification. From the e-mailed link (anonymous, `?email=&code=` prefill the form) the
 * address and code are sent; at the sign-in stage (EMAIL_VERIFICATION_REQUIRED) only the code,
 * and the answer continues the sign-in.
 */
export default function VerifyEmailPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const session = useSession();
  const inSession = session.state === AccountState.EMAIL_VERIFICATION_REQUIRED;
  const status = useVerificationStatus(inSession);
  const send = useSendEmailCode();
  const verify = useVerifyEmailCode();
  const countdown = useCountdown();
  const [sent, setSent] = useState<CodeSent | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [verified, setVerified] = useState(false);
  const schema = useMemo(() => (inSession ? sessionSchema : anonymousSchema), [inSession]);
  const {
    control,
    register,
    handleSubmit,
    setError,
    setValue,
    setFocus,
    trigger,
    getValues,
    formState: { errors },
  } = useForm<EmailForm, unknown, z.output<typeof anonymousSchema>>({
    resolver: zodResolver(schema),
    defaultValues: {
      email: params.get('email') ?? '',
      code: (params.get('code') ?? '').replace(/\D/g, '').slice(0, CODES.length),
    },
  });
  const email = register('email');

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    verify.mutate(inSession ? { code: values.code } : { email: values.email, code: values.code }, {
      onSuccess: (answer) => {
        if (!('type' in answer)) setVerified(true);
      },
      onError: (error) => {
        if (isPendingStage(error)) return;
        if (applyServerErrors(error, setError, ['email', 'code'])) return;
        setFailure(error);
        if (isCodeError(error)) {
          setValue('code', '');
          setFocus('code');
        }
      },
    });
  });

  const resend = async () => {
    setFailure(null);
    setSent(null);
    if (!inSession && !(await trigger('email'))) return;
    send.mutate(inSession ? undefined : getValues('email').trim(), {
      onSuccess: (result) => {
        setSent(result);
        countdown.start(result.retryAfterSeconds);
      },
      onError: (error) => {
        if (isPendingStage(error)) return;
        const wait = retryAfterOf(error);
        if (wait) countdown.start(wait);
        if (!applyServerErrors(error, setError, ['email'])) setFailure(error);
      },
    });
  };

  if (verified) {
    return (
      <Page title={t('security:verifyEmail.title')}>
        <FormStatus severity="success" data-testid="verify-email-success">
          {t('security:verifyEmail.verified')}
        </FormStatus>
        <Button component={RouterLink} to="/security/login" variant="contained">
          {t('security:verifyEmail.goToLogin')}
        </Button>
      </Page>
    );
  }

  const address = status.data?.email;
  return (
    <Page title={t('security:verifyEmail.title')}>
      <Typography sx={{ mb: 3 }}>
        {inSession
          ? address
            ? t('security:verifyEmail.introSession', { email: isolate(address) })
            : t('security:verifyEmail.introSessionNoAddress')
          : t('security:verifyEmail.introAnonymous')}
      </Typography>
      <FormStatus>
        {sent &&
          t(inSession ? 'common:code.sentAgainTo' : 'security:verifyEmail.sentIfAccount', {
            destination: isolate(sent.destination),
          })}
      </FormStatus>
      <FormError>{failure ? errorMessage(i18n, failure) : null}</FormError>
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onSubmit)}
        aria-labelledby="page-title"
        sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        {!inSession && (
          <TextField
            id="verify-email-email"
            type="email"
            label={t('security:verifyEmail.email')}
            helperText={validationMessage(i18n, errors.email?.message)}
            error={!!errors.email}
            required
            fullWidth
            autoComplete="email"
            {...registeredField(email)}
            slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false, maxLength: 180 } }}
          />
        )}
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
            />
          )}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={verify.isPending}
          data-testid="verify-email-submit"
        >
          {t('security:verifyEmail.submit')}
        </Button>
      </Box>
      <Box
        component="section"
        aria-labelledby="verify-email-not-received"
        sx={{ mt: 4, pt: 3, borderTop: 1, borderColor: 'divider' }}
      >
        <Typography
          id="verify-email-not-received"
          component="h2"
          variant="subtitle1"
          sx={{ mb: 1 }}
        >
          {t('security:verifyEmail.notReceived')}
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('security:verifyEmail.notReceivedHelp')}
        </Typography>
        <ResendButton
          onClick={() => void resend()}
          seconds={countdown.seconds}
          loading={send.isPending}
          label={t('common:code.send')}
          data-testid="verify-email-resend"
        />
      </Box>
    </Page>
  );
}
