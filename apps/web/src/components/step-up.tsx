import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DigitCodeProvider } from '@hygie/domain';
import { codeSentSchema, okSchema } from '@hygie/domain';
import { ApiError, errorDataOf } from '../lib/api-client';
import { errorMessage } from '../lib/error-message';
import { useServices } from '../lib/services';
import { smsUnavailableKey } from '../lib/sms-unavailable';
import { CodeInput } from './code-input';
import { PasswordField } from './password-field';

/** The server's answer to a sensitive change on a session not proven in the last 5 minutes. */
export function needsStepUp(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'reauthentication_required';
}

export interface StepUp {
  /** The last attempt of the action was refused until the password is confirmed. */
  required: boolean;
  password: string;
  setPassword: (value: string) => void;
  /** Runs the action, after confirming the password first when the server asked for it. */
  run: (action: () => void) => void;
  pending: boolean;
  error: unknown;
}

/**
 * The step-up before a sensitive change (enrolling a passkey or the app's key): when the action's
 * last error says so, the password is asked again (POST /api/session/reauthenticate), then the
 * action runs again.
 */
export function useStepUp(actionError: unknown): StepUp {
  const { api } = useServices();
  const [password, setPassword] = useState('');
  const confirm = useMutation({
    mutationFn: (value: string) =>
      api.post('/session/reauthenticate', { password: value }, okSchema),
  });
  const required = needsStepUp(actionError);
  return {
    required,
    password,
    setPassword,
    run: (action) => {
      if (!required) {
        action();
        return;
      }
      if (!password) return;
      confirm.mutate(password, {
        onSuccess: () => {
          setPassword('');
          confirm.reset();
          action();
        },
      });
    },
    pending: confirm.isPending,
    error: confirm.error,
  };
}

/** The password field of a step-up, shown only while the server asks for it. */
export function StepUpPassword({ stepUp, id }: { stepUp: StepUp; id: string }) {
  const { t, i18n } = useTranslation();
  if (!stepUp.required) return null;
  const missing = !stepUp.password;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="step-up">
      <Alert severity="info" role="status">
        {t('errors:reauthentication_required')}
      </Alert>
      {stepUp.error !== null && (
        <Alert severity="error" role="alert" data-testid="step-up-error">
          {errorMessage(i18n, stepUp.error)}
        </Alert>
      )}
      <PasswordField
        id={id}
        label={t('common:password.label')}
        autoComplete="current-password"
        required
        fullWidth
        autoFocus
        value={stepUp.password}
        error={missing}
        helperText={missing ? t('validation:field_required') : undefined}
        onChange={(event) => stepUp.setPassword(event.target.value)}
      />
    </Box>
  );
}

/** The server's answer to an admin act that needs a second factor passed in the last 5 minutes. */
export function needsSecondFactor(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'second_factor_required';
}

export interface SecondFactorStepUp {
  required: boolean;
  /** The channels and masked destinations the server named (the authenticator app's first). */
  providers: DigitCodeProvider[];
  hints: { email: string; sms: string | null };
  /** Why SMS is not among the providers (translation key), null when it is. */
  smsUnavailable: string | null;
  provider: DigitCodeProvider;
  setProvider: (value: DigitCodeProvider) => void;
  code: string;
  setCode: (value: string) => void;
  /** Sends a code on the chosen channel. */
  send: () => void;
  sent: boolean;
  /** Runs the action, after checking the code first when the server asked for it. */
  run: (action: () => void) => void;
  pending: boolean;
  error: unknown;
}

/**
 * The step-up by second factor before an admin act that cuts someone's access: when the action's
 * last error asks for it, a code of the authenticator app (offered first when the account has
 * one), or one sent by e-mail or SMS (POST /api/session/second-factor/send), is checked
 * (…/verify), then the action runs again.
 */
export function useSecondFactorStepUp(actionError: unknown): SecondFactorStepUp {
  const { api } = useServices();
  const data = errorDataOf(actionError, 'second_factor_required');
  // The 6-digit codes: the app's, then those this dialog sends (recovery codes stay for signing in).
  const providers = (data?.two_factor_providers ?? ['email']).flatMap((p) =>
    p === 'totp' || p === 'email' || p === 'sms' ? [p] : [],
  );
  const [picked, setProvider] = useState<DigitCodeProvider | null>(null);
  const provider = picked ?? providers[0] ?? 'email';
  const [code, setCode] = useState('');
  const sendCode = useMutation({
    mutationFn: (chosen: 'email' | 'sms') =>
      api.post('/session/second-factor/send', { provider: chosen }, codeSentSchema),
  });
  const verify = useMutation({
    mutationFn: (input: { provider: DigitCodeProvider; code: string }) =>
      api.post('/session/second-factor/verify', input, okSchema),
  });
  const required = needsSecondFactor(actionError);
  return {
    required,
    providers,
    hints: { email: data?.email_hint ?? '', sms: data?.sms_hint ?? null },
    smsUnavailable: data?.two_factor_providers.includes('sms') ? null : smsUnavailableKey(data),
    provider,
    setProvider,
    code,
    setCode,
    send: () => {
      if (provider !== 'totp') sendCode.mutate(provider);
    },
    sent: sendCode.isSuccess,
    run: (action) => {
      if (!required) {
        action();
        return;
      }
      if (code.length === 0) return;
      verify.mutate(
        { provider, code },
        {
          onSuccess: () => {
            setCode('');
            sendCode.reset();
            verify.reset();
            action();
          },
        },
      );
    },
    pending: sendCode.isPending || verify.isPending,
    error: verify.error ?? sendCode.error,
  };
}

/**
 * The second factor of a step-up — only while asked for: the method, then "send" and the code, or
 * the authenticator app's code straight away (nothing to send).
 */
export function StepUpSecondFactor({ stepUp, id }: { stepUp: SecondFactorStepUp; id: string }) {
  const { t, i18n } = useTranslation();
  if (!stepUp.required) return null;
  const app = stepUp.provider === 'totp';
  const label = {
    totp: t('security:mfa.byApp'),
    email: t('security:mfa.byEmail', { hint: stepUp.hints.email }),
    sms: t('security:mfa.bySms', { hint: stepUp.hints.sms ?? '' }),
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="step-up-code">
      <Alert severity="info" role="status">
        {t('errors:second_factor_required')}
      </Alert>
      {stepUp.error !== null && (
        <Alert severity="error" role="alert" data-testid="step-up-error">
          {errorMessage(i18n, stepUp.error)}
        </Alert>
      )}
      {stepUp.providers.length > 1 && (
        <TextField
          id={`${id}-provider`}
          select
          label={t('security:mfa.providerLabel')}
          value={stepUp.provider}
          onChange={(event) =>
            stepUp.setProvider(stepUp.providers.find((p) => p === event.target.value) ?? 'email')
          }
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          {stepUp.providers.map((p) => (
            <option key={p} value={p}>
              {label[p]}
            </option>
          ))}
        </TextField>
      )}
      {stepUp.smsUnavailable !== null && (
        <Typography variant="body2" color="text.secondary" data-testid="step-up-sms-unavailable">
          {t(stepUp.smsUnavailable)}
        </Typography>
      )}
      {!app && (
        <Box>
          <Button
            variant="outlined"
            onClick={stepUp.send}
            loading={stepUp.pending && !stepUp.sent}
            data-testid="step-up-send"
          >
            {t('security:mfa.send')}
          </Button>
        </Box>
      )}
      {(app || stepUp.sent) && (
        <CodeInput
          label={t(app ? 'security:mfa.appCodeTitle' : 'security:mfa.codeTitle')}
          value={stepUp.code}
          onChange={stepUp.setCode}
          autoFocus
        />
      )}
    </Box>
  );
}
