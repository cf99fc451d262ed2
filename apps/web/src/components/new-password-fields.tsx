import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { registeredField } from '../lib/handlers';
import { validationMessage } from '../lib/validation-message';
import { PasswordField } from './password-field';

export interface NewPasswordFieldsProps {
  /** Ids are `<idPrefix>-password` and `<idPrefix>-password-confirmation`. */
  idPrefix: string;
  password: UseFormRegisterReturn;
  confirmation: UseFormRegisterReturn;
  /** Validation keys (react-hook-form error messages). */
  passwordError?: string | undefined;
  confirmationError?: string | undefined;
  /** "Password" at sign-up; "New password" elsewhere. */
  variant?: 'password' | 'newPassword';
}

/** A new password and its confirmation, with the rule as the hint (spec §5). */
export function NewPasswordFields({
  idPrefix,
  password,
  confirmation,
  passwordError,
  confirmationError,
  variant = 'newPassword',
}: NewPasswordFieldsProps) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <PasswordField
        id={`${idPrefix}-password`}
        label={t(variant === 'password' ? 'common:password.label' : 'common:password.new')}
        helperText={validationMessage(i18n, passwordError) ?? t('common:password.rule')}
        error={!!passwordError}
        required
        fullWidth
        autoComplete="new-password"
        {...registeredField(password)}
        slotProps={{ htmlInput: { maxLength: 128 } }}
      />
      <PasswordField
        id={`${idPrefix}-password-confirmation`}
        label={t('common:password.confirmation')}
        helperText={validationMessage(i18n, confirmationError)}
        error={!!confirmationError}
        required
        fullWidth
        autoComplete="new-password"
        {...registeredField(confirmation)}
        slotProps={{ htmlInput: { maxLength: 128 } }}
      />
    </>
  );
}
