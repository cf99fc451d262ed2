import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AccountState } from '@hygie/domain';
import { FormError } from '../../components/form-error';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Page } from '../../components/page';
import { SignInStepMissing } from '../../components/sign-in-step-missing';
import { useSession } from '../../lib/current-user';
import { errorMessage } from '../../lib/error-message';
import { applyServerErrors, PASSWORD_CODE_FIELDS } from '../../lib/form-errors';
import { newPasswordFields, type NewPasswordValues } from '../../lib/form-schemas';
import { voidHandler } from '../../lib/handlers';
import { isPendingStage } from '../../lib/sign-in';
import { usePasswordRenewal } from './api/renew-password';

function RenewalForm({ expired }: { expired: boolean }) {
  const { t, i18n } = useTranslation();
  const renew = usePasswordRenewal();
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
    renew.mutate(values, {
      onError: (error) => {
        if (isPendingStage(error)) return;
        const fields = ['password', 'passwordConfirmation'] as const;
        if (!applyServerErrors(error, setError, fields, PASSWORD_CODE_FIELDS)) setFailure(error);
      },
    });
  });

  return (
    <>
      <Typography sx={{ mb: 3 }}>
        {t(expired ? 'security:passwordRenewal.expired' : 'security:passwordRenewal.creation')}
      </Typography>
      <FormError>{failure ? errorMessage(i18n, failure) : null}</FormError>
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onSubmit)}
        aria-labelledby="page-title"
        sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        <NewPasswordFields
          idPrefix="renewal"
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
          loading={renew.isPending}
          data-testid="renewal-submit"
        >
          {t('security:passwordRenewal.submit')}
        </Button>
      </Box>
    </>
  );
}

/** Password renewal (sign-in stage 5): the password expired, or the account has none yet. */
export default function PasswordRenewalPage() {
  const { t } = useTranslation();
  const { state } = useSession();
  const expired = state === AccountState.PASSWORD_EXPIRED;
  const creation = state === AccountState.PASSWORD_CREATION_REQUIRED;
  return (
    <Page
      title={t(
        creation ? 'security:passwordRenewal.creationTitle' : 'security:passwordRenewal.title',
      )}
    >
      {expired || creation ? <RenewalForm expired={expired} /> : <SignInStepMissing />}
    </Page>
  );
}
