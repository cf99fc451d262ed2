import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormError } from '../../components/form-error';
import { PasswordField } from '../../components/password-field';
import {
  needsSecondFactor,
  StepUpSecondFactor,
  useSecondFactorStepUp,
} from '../../components/step-up';
import { errorMessage } from '../../lib/error-message';
import { DELETED, GOODBYE_PATH, useDeleteAccount } from './api';

type Proof = 'password' | 'code';

/**
 * "Delete my account": what is erased and what stays, then the proof — the current password, or
 * a verification code (none when one was typed in the last 5 minutes). Once deleted, the goodbye
 * page, signed out.
 */
export function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteAccount();
  const [proof, setProof] = useState<Proof>('password');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const secondFactor = useSecondFactorStepUp(proof === 'code' ? remove.error : null);
  const pending = remove.isPending || secondFactor.pending;

  // The goodbye page signs the app out once shown: signed out here, the guard would send the
  // visitor of the profile to the sign-in page first.
  const deleted = () => void navigate(GOODBYE_PATH, { replace: true, state: DELETED });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (proof === 'password') {
      if (!password) {
        setMissing(true);
        return;
      }
      remove.mutate({ password }, { onSuccess: deleted });
    } else {
      secondFactor.run(() => remove.mutate({}, { onSuccess: deleted }));
    }
  };
  const switchTo = (next: Proof) => {
    remove.reset();
    setPassword('');
    setMissing(false);
    setProof(next);
  };
  const failure =
    remove.error !== null && !(proof === 'code' && needsSecondFactor(remove.error))
      ? errorMessage(i18n, remove.error)
      : null;

  return (
    <Dialog
      open
      onClose={() => {
        if (!pending) onClose();
      }}
      aria-labelledby="delete-account-title"
      aria-describedby="delete-account-text"
      data-testid="delete-account-dialog"
    >
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id="delete-account-title">{t('my-data:delete.title')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2 }}>
          <Box id="delete-account-text">
            <Typography sx={{ mb: 1 }}>{t('my-data:delete.erased')}</Typography>
            <Typography sx={{ mb: 1 }}>{t('my-data:delete.kept')}</Typography>
            <Typography sx={{ fontWeight: 500 }}>{t('my-data:delete.final')}</Typography>
          </Box>
          <FormError>{failure}</FormError>
          {proof === 'password' ? (
            <>
              <PasswordField
                id="delete-account-password"
                label={t('my-data:delete.password')}
                autoComplete="current-password"
                required
                fullWidth
                autoFocus
                value={password}
                error={missing && !password}
                helperText={missing && !password ? t('validation:field_required') : undefined}
                onChange={(event) => setPassword(event.target.value)}
              />
              <Link
                component="button"
                type="button"
                onClick={() => switchTo('code')}
                sx={{ justifySelf: 'start' }}
                data-testid="delete-account-use-code"
              >
                {t('my-data:delete.useCode')}
              </Link>
            </>
          ) : (
            <>
              {!secondFactor.required && <Typography>{t('my-data:delete.codeIntro')}</Typography>}
              <StepUpSecondFactor stepUp={secondFactor} id="delete-account-code" />
              <Link
                component="button"
                type="button"
                onClick={() => switchTo('password')}
                sx={{ justifySelf: 'start' }}
                data-testid="delete-account-use-password"
              >
                {t('my-data:delete.usePassword')}
              </Link>
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending} data-testid="delete-account-cancel">
            {t('common:actions.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color="error"
            loading={pending}
            data-testid="delete-account-confirm"
          >
            {t('my-data:delete.confirm')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
