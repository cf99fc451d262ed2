import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { AccountState, formatPhone, mobilePhoneSchema, type CodeSent } from '@hygie/domain';
import { CodeInput } from '../../components/code-input';
import { FormError, FormStatus } from '../../components/form-error';
import { Page } from '../../components/page';
import { PhoneField } from '../../components/phone-field';
import { ResendButton } from '../../components/resend-button';
import { SignInStepMissing } from '../../components/sign-in-step-missing';
import { StepHeading } from '../../components/step-heading';
import { useCountdown } from '../../lib/countdown';
import { useSession } from '../../lib/current-user';
import { errorMessage, isolate } from '../../lib/error-message';
import { applyServerErrors, isCodeError, retryAfterOf } from '../../lib/form-errors';
import { codeField } from '../../lib/form-schemas';
import { registeredField, voidHandler } from '../../lib/handlers';
import { isPendingStage } from '../../lib/sign-in';
import { validationMessage } from '../../lib/validation-message';
import { waitInWords } from '../../lib/wait';
import { useVerificationStatus } from './api/get-verification';
import { useChangePhone } from './api/change-phone';
import { useSendPhoneCode } from './api/send-phone-code';
import { useVerifyPhoneCode } from './api/verify-phone-code';

const phoneFormSchema = z.object({ phone: mobilePhoneSchema });
const codeFormSchema = z.object({ code: codeField });

/** On this screen an invalid number reads "The phone number is invalid." (spec §5). */
function phoneMessage(message: string | undefined): string | undefined {
  return message === 'phone_invalid' ? 'mobile_phone_invalid' : message;
}

function PhoneSteps() {
  const { t, i18n } = useTranslation();
  const status = useVerificationStatus(true);
  const change = useChangePhone();
  const sendAgain = useSendPhoneCode();
  const verify = useVerifyPhoneCode();
  const countdown = useCountdown();
  const [step, setStep] = useState<'number' | 'code'>('number');
  const [sent, setSent] = useState<{ result: CodeSent; again: boolean } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [notChanged, setNotChanged] = useState<number | null>(null);
  const phoneForm = useForm<z.input<typeof phoneFormSchema>, unknown, { phone: string }>({
    resolver: zodResolver(phoneFormSchema),
    values: { phone: status.data?.mobile_phone ? formatPhone(status.data.mobile_phone) : '' },
    resetOptions: { keepDirtyValues: true },
  });
  const codeForm = useForm<z.input<typeof codeFormSchema>, unknown, { code: string }>({
    resolver: zodResolver(codeFormSchema),
    defaultValues: { code: '' },
  });
  const phone = phoneForm.register('phone');
  const current = status.data?.mobile_phone ?? null;

  const onSent = (result: CodeSent, again: boolean) => {
    setSent({ result, again });
    countdown.start(result.retryAfterSeconds);
    setStep('code');
  };
  /**
   * A refused send. Too soon for the number on file: the code sent moments ago can still be typed,
   * so the code step opens with the wait. Too soon for another number: the server kept the number
   * on file (the change and its code are one step), so the page stays on the number, the typed
   * number kept, and says the number has not been changed yet and when it can be.
   */
  const onSendError = (error: unknown, typed: string | null) => {
    if (isPendingStage(error)) return;
    const wait = retryAfterOf(error);
    if (wait) {
      countdown.start(wait);
      if (typed !== null && typed !== current) {
        setNotChanged(wait);
        return;
      }
      if (typed !== null) setStep('code');
    }
    if (typed !== null && applyServerErrors(error, phoneForm.setError, ['phone'])) return;
    setFailure(error);
  };

  const submitNumber = phoneForm.handleSubmit((values) => {
    setFailure(null);
    setNotChanged(null);
    setSent(null);
    change.mutate(values.phone, {
      onSuccess: (result) => onSent(result, false),
      onError: (error) => onSendError(error, values.phone),
    });
  });

  const resend = () => {
    setFailure(null);
    setSent(null);
    sendAgain.mutate(undefined, {
      onSuccess: (result) => onSent(result, true),
      onError: (error) => onSendError(error, null),
    });
  };

  const submitCode = codeForm.handleSubmit((values) => {
    setFailure(null);
    verify.mutate(values.code, {
      onError: (error) => {
        if (isPendingStage(error)) return;
        if (applyServerErrors(error, codeForm.setError, ['code'])) return;
        setFailure(error);
        if (isCodeError(error)) {
          codeForm.setValue('code', '');
          codeForm.setFocus('code');
        }
      },
    });
  });

  const failureText = failure ? errorMessage(i18n, failure) : null;
  const notChangedText =
    notChanged === null
      ? null
      : t('wait:notChanged.phone', { wait: waitInWords(i18n, notChanged) });

  // The number on file fills the form when it arrives, and that resets the form: a send made
  // before it would be lost (its validation error wiped with it). The form waits for the number.
  if (step === 'number' && status.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
        <CircularProgress aria-label={t('common:loading')} />
      </Box>
    );
  }

  if (step === 'number') {
    const phoneError = phoneMessage(phoneForm.formState.errors.phone?.message);
    return (
      <>
        <Typography sx={{ mb: 3 }}>
          {current
            ? t('security:verifyMobilePhone.introCurrent', { phone: isolate(formatPhone(current)) })
            : t('security:verifyMobilePhone.introNone')}
        </Typography>
        <FormError>{notChangedText ?? failureText}</FormError>
        <Box
          component="form"
          noValidate
          onSubmit={voidHandler(submitNumber)}
          aria-labelledby="page-title"
          sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
        >
          <PhoneField
            id="verify-phone-number"
            label={t('security:verifyMobilePhone.number')}
            helperText={validationMessage(i18n, phoneError)}
            error={!!phoneError}
            required
            fullWidth
            {...registeredField(phone)}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            loading={change.isPending}
            data-testid="verify-phone-send"
          >
            {t('security:verifyMobilePhone.send')}
          </Button>
        </Box>
      </>
    );
  }

  return (
    <>
      <StepHeading focusOnMount>{t('security:verifyMobilePhone.codeTitle')}</StepHeading>
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
        onSubmit={voidHandler(submitCode)}
        aria-label={t('security:verifyMobilePhone.codeTitle')}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        <Controller
          name="code"
          control={codeForm.control}
          render={({ field, fieldState }) => (
            <CodeInput
              label={t('common:code.smsLabel')}
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
          data-testid="verify-phone-submit"
        >
          {t('security:verifyMobilePhone.submit')}
        </Button>
      </Box>
      <Box
        component="section"
        aria-labelledby="verify-phone-not-received"
        sx={{ mt: 4, pt: 3, borderTop: 1, borderColor: 'divider' }}
      >
        <Typography
          id="verify-phone-not-received"
          component="h3"
          variant="subtitle1"
          sx={{ mb: 1 }}
        >
          {t('security:verifyMobilePhone.notReceived')}
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('security:verifyMobilePhone.notReceivedHelp')}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
          <ResendButton
            onClick={resend}
            seconds={countdown.seconds}
            loading={sendAgain.isPending}
            data-testid="verify-phone-resend"
          />
          <Button
            onClick={() => {
              setFailure(null);
              setNotChanged(null);
              setSent(null);
              setStep('number');
            }}
          >
            {t('security:verifyMobilePhone.changeNumber')}
          </Button>
        </Box>
      </Box>
    </>
  );
}

/** Mobile phone verification (sign-in stage 3): set or change the number, type the SMS code. */
export default function VerifyMobilePhonePage() {
  const { t } = useTranslation();
  const session = useSession();
  const active = session.state === AccountState.MOBILE_PHONE_VERIFICATION_REQUIRED;
  return (
    <Page title={t('security:verifyMobilePhone.title')}>
      {active ? <PhoneSteps /> : <SignInStepMissing />}
    </Page>
  );
}
