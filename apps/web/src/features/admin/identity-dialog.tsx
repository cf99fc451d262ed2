import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Profile } from '@hygie/domain';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage, isolate } from '../../lib/error-message';
import { fieldProblems } from '../../lib/form-errors';
import { registeredField, voidHandler } from '../../lib/handlers';
import { useServices } from '../../lib/services';
import { validationMessage } from '../../lib/validation-message';
import {
  type FieldBuilder,
  PersonIdentityFields,
  ProfessionalIdentifierFields,
} from '../profile/identity-fields';
import {
  fieldOfPath,
  formValuesOf,
  payloadOf,
  profileResolver,
  type ProfileFormValues,
} from '../profile/profile-form';
import { useCorrectIdentity, useUserIdentity } from './api/identity';

/** The checked identity an admin corrects (the profile's other fields are the user's own). */
const IDENTITY_KEYS = [
  'firstName',
  'lastName',
  'birthName',
  'birthDate',
  'birthPlaceInsee',
  'sex',
  'identifier',
] as const;

/** An admin corrects a user's names, birth traits or professional identifier (audited). */
export function IdentityDialog({
  userId,
  name,
  onClose,
}: {
  userId: string;
  name: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const identity = useUserIdentity(userId);
  return (
    <Dialog open onClose={onClose} aria-labelledby="identity-title" fullWidth maxWidth="sm">
      <DialogTitle id="identity-title">
        {t('admin:identity.title', { name: isolate(name) })}
      </DialogTitle>
      {identity.isPending && (
        <DialogContent>
          <CircularProgress aria-label={t('common:loading')} />
        </DialogContent>
      )}
      {identity.isError && (
        <DialogContent>
          <Alert severity="error" role="alert" data-testid="form-error">
            {errorMessage(i18n, identity.error)}
          </Alert>
        </DialogContent>
      )}
      {identity.data && <IdentityForm userId={userId} profile={identity.data} onClose={onClose} />}
    </Dialog>
  );
}

function IdentityForm({
  userId,
  profile,
  onClose,
}: {
  userId: string;
  profile: Profile;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const correct = useCorrectIdentity(userId);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ProfileFormValues>({
    resolver: profileResolver(profile.profile),
    defaultValues: formValuesOf(profile),
  });
  const field: FieldBuilder = (name, id, label, options = {}) => ({
    id,
    label,
    required: options.required ?? false,
    fullWidth: true,
    error: !!errors[name],
    helperText: validationMessage(i18n, errors[name]?.message) ?? options.help,
    ...registeredField(register(name)),
  });

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    const all = payloadOf(values, profile.profile);
    const body = Object.fromEntries(IDENTITY_KEYS.filter((k) => k in all).map((k) => [k, all[k]]));
    correct.mutate(body, {
      onSuccess: () => {
        notifications.notify(t('admin:identity.done'), 'success');
        onClose();
      },
      onError: (error) => {
        const problems = fieldProblems(error).flatMap((problem) => {
          const target = fieldOfPath(problem.path);
          return target ? [{ target, message: problem.message }] : [];
        });
        problems.forEach(({ target, message }, index) =>
          setError(target, { type: 'server', message }, { shouldFocus: index === 0 }),
        );
        if (problems.length === 0) setFailure(errorMessage(i18n, error));
      },
    });
  });

  return (
    <Box
      component="form"
      noValidate
      onSubmit={voidHandler(onSubmit)}
      aria-labelledby="identity-title"
    >
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <DialogContentText>{t('admin:identity.intro')}</DialogContentText>
        {failure && (
          <Alert severity="error" role="alert" data-testid="form-error">
            {failure}
          </Alert>
        )}
        <PersonIdentityFields field={field} idPrefix="identity" />
        {profile.profile === 'professional' && (
          <ProfessionalIdentifierFields field={field} idPrefix="identity" />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={correct.isPending}>
          {t('common:actions.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          loading={correct.isPending}
          data-testid="identity-save"
        >
          {t('admin:identity.save')}
        </Button>
      </DialogActions>
    </Box>
  );
}
