import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { mobilePhoneSchema } from '@hygie/domain';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CodeInput } from '../../components/code-input';
import { FormError, FormStatus } from '../../components/form-error';
import { PasswordField } from '../../components/password-field';
import { PhoneField } from '../../components/phone-field';
import { errorMessage, isolate } from '../../lib/error-message';
import { applyServerErrors, isCodeError, retryAfterOf } from '../../lib/form-errors';
import { codeField, emailField } from '../../lib/form-schemas';
import { registeredField, voidHandler } from '../../lib/handlers';
import { useServices } from '../../lib/services';
import { validationMessage } from '../../lib/validation-message';
import { waitInWords } from '../../lib/wait';
import {
  useRequestContactChange,
  useVerifyContactChange,
  type ContactChangeInput,
  type ContactKind,
} from './api/change-contact';

const requestSchemas = {
  email: z.object({
    value: emailField,
    currentPassword: z.string().min(1, { error: 'field_required' }),
  }),
  phone: z.object({
    value: mobilePhoneSchema,
    currentPassword: z.string().min(1, { error: 'field_required' }),
  }),
};

const codeSchema = z.object({ code: codeField });

/**
 * Changing the e-mail or the phone: the new value and the current password, then the code sent
 * to the new value; only then does it replace the old one.
 */
export function ContactChange({ kind, onDone }: { kind: ContactKind; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const request = useRequestContactChange(kind);
  const verify = useVerifyContactChange(kind);
  const [sent, setSent] = useState<{ input: ContactChangeInput; destination: string } | null>(null);
  const prefix = `profile-${kind}`;

  const form = useForm<{ value: string; currentPassword: string }>({
    resolver: zodResolver(requestSchemas[kind]),
    defaultValues: { value: '', currentPassword: '' },
  });
  const codeForm = useForm<{ code: string }>({
    resolver: zodResolver(codeSchema),
    defaultValues: { code: '' },
  });
  const [requestError, setRequestError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);

  /**
   * Asks for a code to the new value. A refusal on the first step stays there, the typed value
   * kept; too soon after the last code, the value is not changed (the pending value and its code
   * are one step) and the user is told so, with the wait. A refusal of "send again" shows on the
   * code step, where the user is.
   */
  const send = (input: ContactChangeInput) => {
    const again = sent !== null;
    setRequestError(null);
    setCodeError(null);
    request.mutate(input, {
      onSuccess: (result) => {
        setSent({ input, destination: result.destination });
        codeForm.reset({ code: '' });
      },
      onError: (error) => {
        if (again) {
          setCodeError(errorMessage(i18n, error));
          return;
        }
        const wait = retryAfterOf(error);
        if (wait !== null) {
          setRequestError(
            t(kind === 'email' ? 'wait:notChanged.email' : 'wait:notChanged.phone', {
              wait: waitInWords(i18n, wait),
            }),
          );
          return;
        }
        const onFields = applyServerErrors(error, form.setError, ['value', 'currentPassword'], {
          email_already_used: 'value',
        });
        if (!onFields) setRequestError(errorMessage(i18n, error));
      },
    });
  };

  const onRequest = form.handleSubmit((values) =>
    send({ value: values.value, currentPassword: values.currentPassword }),
  );

  const onVerify = codeForm.handleSubmit((values) => {
    setCodeError(null);
    verify.mutate(values.code, {
      onSuccess: () => {
        notifications.notify(t('common:messages.modified'), 'success');
        onDone();
      },
      onError: (error) => {
        if (isCodeError(error)) codeForm.setValue('code', '');
        setCodeError(errorMessage(i18n, error));
      },
    });
  });

  const value = form.register('value');
  const password = form.register('currentPassword');
  const valueLabel = t(kind === 'email' ? 'account:profile.newEmail' : 'account:profile.newPhone');

  if (sent) {
    return (
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onVerify)}
        sx={{ display: 'grid', gap: 2 }}
      >
        <FormStatus>
          {t('common:code.sentTo', { destination: isolate(sent.destination) })}
        </FormStatus>
        <FormError>{codeError}</FormError>
        <Controller
          name="code"
          control={codeForm.control}
          render={({ field, fieldState }) => (
            <CodeInput
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              label={t(kind === 'email' ? 'common:code.label' : 'common:code.smsLabel')}
              error={validationMessage(i18n, fieldState.error?.message)}
              helperText={t('common:code.help')}
              autoFocus
            />
          )}
        />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button
            type="submit"
            variant="contained"
            loading={verify.isPending}
            data-testid={`${prefix}-verify`}
          >
            {t('account:profile.confirmChange')}
          </Button>
          <Button variant="outlined" onClick={() => send(sent.input)} loading={request.isPending}>
            {t('common:code.resend')}
          </Button>
          <Button onClick={onDone}>{t('common:actions.cancel')}</Button>
        </Box>
      </Box>
    );
  }

  const valueProps = {
    id: `${prefix}-new`,
    label: valueLabel,
    required: true,
    fullWidth: true,
    error: !!form.formState.errors.value,
    helperText: validationMessage(i18n, form.formState.errors.value?.message),
    name: value.name,
    onChange: value.onChange,
    onBlur: value.onBlur,
    inputRef: value.ref,
  };
  return (
    <Box
      component="form"
      noValidate
      onSubmit={voidHandler(onRequest)}
      sx={{ display: 'grid', gap: 2 }}
    >
      <Typography variant="body2">{t('account:profile.changeExplained')}</Typography>
      <FormError>{requestError}</FormError>
      {kind === 'phone' ? (
        <PhoneField {...valueProps} autoComplete="tel" />
      ) : (
        <TextField
          {...valueProps}
          type="email"
          autoComplete="email"
          slotProps={{ htmlInput: { dir: 'ltr', maxLength: 180, autoCapitalize: 'none' } }}
        />
      )}
      <PasswordField
        id={`${prefix}-password`}
        label={t('account:profile.currentPassword')}
        required
        fullWidth
        autoComplete="current-password"
        error={!!form.formState.errors.currentPassword}
        helperText={validationMessage(i18n, form.formState.errors.currentPassword?.message)}
        {...registeredField(password)}
      />
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button
          type="submit"
          variant="contained"
          loading={request.isPending}
          data-testid={`${prefix}-send`}
        >
          {t('account:profile.sendCode')}
        </Button>
        <Button onClick={onDone}>{t('common:actions.cancel')}</Button>
      </Box>
    </Box>
  );
}
