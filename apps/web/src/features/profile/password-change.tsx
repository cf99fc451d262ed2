import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormError, FormStatus } from '../../components/form-error';
import { NewPasswordFields } from '../../components/new-password-fields';
import { PasswordField } from '../../components/password-field';
import { errorMessage } from '../../lib/error-message';
import { applyServerErrors, PASSWORD_CODE_FIELDS } from '../../lib/form-errors';
import { newPasswordFields } from '../../lib/form-schemas';
import { registeredField, voidHandler } from '../../lib/handlers';
import { validationMessage } from '../../lib/validation-message';
import { useChangePassword, type PasswordChangeInput } from './api/change-password';

const schema = z
  .object({ currentPassword: z.string().min(1, { error: 'field_required' }) })
  .and(newPasswordFields);

/** Change password: the current one, the new one twice; the other sessions are signed out. */
export function PasswordChange() {
  const { t, i18n } = useTranslation();
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<PasswordChangeInput>({
    resolver: zodResolver(schema),
    defaultValues: { currentPassword: '', password: '', passwordConfirmation: '' },
  });
  const current = register('currentPassword');

  // A new try, even one the form refuses before calling the server, hides the last success.
  const onSubmit = handleSubmit(
    (values) => {
      setFailure(null);
      setDone(false);
      change.mutate(values, {
        onSuccess: () => {
          reset();
          setDone(true);
        },
        onError: (error) => {
          const onFields = applyServerErrors(
            error,
            setError,
            ['currentPassword', 'password', 'passwordConfirmation'],
            PASSWORD_CODE_FIELDS,
          );
          if (!onFields) setFailure(errorMessage(i18n, error));
        },
      });
    },
    () => setDone(false),
  );

  return (
    <Box
      component="form"
      noValidate
      onSubmit={voidHandler(onSubmit)}
      aria-labelledby="password-title"
      sx={{ display: 'grid', gap: 2 }}
    >
      <FormStatus severity="success" data-testid="password-changed">
        {done ? t('account:profile.passwordChanged') : null}
      </FormStatus>
      <FormError>{failure}</FormError>
      <PasswordField
        id="profile-current-password"
        label={t('account:profile.currentPassword')}
        required
        fullWidth
        autoComplete="current-password"
        error={!!errors.currentPassword}
        helperText={validationMessage(i18n, errors.currentPassword?.message)}
        {...registeredField(current)}
      />
      <NewPasswordFields
        idPrefix="profile-new"
        password={register('password')}
        confirmation={register('passwordConfirmation')}
        passwordError={errors.password?.message}
        confirmationError={errors.passwordConfirmation?.message}
      />
      <Box>
        <Button
          type="submit"
          variant="contained"
          loading={change.isPending}
          data-testid="password-change-submit"
        >
          {t('account:profile.changePassword')}
        </Button>
      </Box>
    </Box>
  );
}
