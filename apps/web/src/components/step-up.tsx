import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { okSchema } from '@hygie/domain';
import { ApiError } from '../lib/api-client';
import { errorMessage } from '../lib/error-message';
import { useServices } from '../lib/services';
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
