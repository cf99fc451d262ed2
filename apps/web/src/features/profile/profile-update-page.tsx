import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LANGUAGES, type Profile } from '@hygie/domain';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FormError } from '../../components/form-error';
import { Page } from '../../components/page';
import { usePublicConfig } from '../../lib/config';
import { errorMessage } from '../../lib/error-message';
import { fieldProblems } from '../../lib/form-errors';
import { registeredField, voidHandler } from '../../lib/handlers';
import { useServices } from '../../lib/services';
import { validationMessage } from '../../lib/validation-message';
import { useProfile } from './api/profile';
import { PersonIdentityFields, ProfessionalIdentifierFields } from './identity-fields';
import { useUpdateProfile } from './api/update-profile';
import {
  fieldOfPath,
  formValuesOf,
  payloadOf,
  profileResolver,
  type ProfileFieldName,
  type ProfileFormValues,
} from './profile-form';

function ProfileForm({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const config = usePublicConfig();
  const update = useUpdateProfile();
  // A validated professional's identity was checked by an admin: only an admin changes it.
  const identityChecked =
    profile.profile === 'professional' && profile.status !== 'pending_validation';
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ProfileFormValues>({
    resolver: profileResolver(profile.profile),
    defaultValues: formValuesOf(profile),
  });

  const field = (
    name: ProfileFieldName,
    id: string,
    label: string,
    options: { required?: boolean; help?: string; checked?: boolean } = {},
  ) => {
    const registered = register(name);
    return {
      id,
      label,
      required: options.required ?? false,
      // A checked identity is shown, not edited (the server refuses a change: identity_locked).
      disabled: options.checked === true && identityChecked,
      fullWidth: true,
      error: !!errors[name],
      helperText: validationMessage(i18n, errors[name]?.message) ?? options.help,
      ...registeredField(registered),
    };
  };

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    update.mutate(payloadOf(values, profile.profile), {
      onSuccess: (saved) => {
        reset(formValuesOf(saved));
        notifications.notify(t('common:messages.modified'), 'success');
      },
      onError: (error) => {
        const problems = fieldProblems(error)
          .map((problem) => ({ field: fieldOfPath(problem.path), message: problem.message }))
          .filter((problem): problem is { field: ProfileFieldName; message: string } =>
            Boolean(problem.field),
          );
        problems.forEach((problem, index) =>
          setError(
            problem.field,
            { type: 'server', message: problem.message },
            { shouldFocus: index === 0 },
          ),
        );
        if (problems.length === 0 || problems.length !== fieldProblems(error).length) {
          setFailure(errorMessage(i18n, error));
        }
      },
    });
  });

  const nativeSelect = { select: { native: true }, inputLabel: { shrink: true } } as const;

  return (
    <Box
      component="form"
      noValidate
      onSubmit={voidHandler(onSubmit)}
      aria-labelledby="page-title"
      sx={{ display: 'grid', gap: 2.5 }}
    >
      <Typography variant="body2">{t('security:registration.requiredNote')}</Typography>
      {identityChecked && (
        <Alert severity="info" data-testid="identity-checked">
          {t('account:profileUpdate.identityChecked', { contactEmail: config?.contactEmail ?? '' })}
        </Alert>
      )}
      <FormError>{failure}</FormError>
      <PersonIdentityFields field={field} idPrefix="profile" />
      <TextField
        {...field('language', 'profile-language', t('account:profile.language'), {
          required: true,
        })}
        select
        slotProps={nativeSelect}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`common:language.names.${language}`)}
          </option>
        ))}
      </TextField>
      {profile.profile === 'patient' && (
        <>
          <TextField
            {...field('ins', 'profile-ins', t('account:profile.ins'))}
            autoComplete="off"
            slotProps={{ htmlInput: { dir: 'ltr', maxLength: 21 } }}
          />
          <TextField
            {...field(
              'firstNameUsed',
              'profile-first-name-used',
              t('account:profile.firstNameUsed'),
            )}
          />
          <TextField
            {...field('lastNameUsed', 'profile-last-name-used', t('account:profile.lastNameUsed'))}
          />
        </>
      )}
      {profile.profile === 'professional' && (
        <>
          <ProfessionalIdentifierFields field={field} idPrefix="profile" />
          <TextField
            {...field('job', 'profile-job', t('security:registration.job'), {
              help: t('security:registration.jobHelp'),
            })}
            autoComplete="organization-title"
          />
          <TextField {...field('specialty', 'profile-specialty', t('account:profile.specialty'))} />
        </>
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button
          type="submit"
          variant="contained"
          loading={update.isPending}
          data-testid="profile-save"
        >
          {t('account:profileUpdate.save')}
        </Button>
        <Button component={RouterLink} to="/profile">
          {t('common:actions.cancel')}
        </Button>
      </Box>
    </Box>
  );
}

export default function ProfileUpdatePage() {
  const { t, i18n } = useTranslation();
  const profile = useProfile();
  return (
    <Page title={t('account:profileUpdate.title')}>
      <Typography sx={{ mb: 3 }}>{t('account:profileUpdate.description')}</Typography>
      {profile.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('common:loading')} />
        </Box>
      )}
      {profile.isError && (
        <Alert severity="error" data-testid="form-error">
          {errorMessage(i18n, profile.error)}
        </Alert>
      )}
      {profile.data && <ProfileForm profile={profile.data} />}
    </Page>
  );
}
