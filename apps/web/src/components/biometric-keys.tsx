import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { biometricCredentialListSchema, type BiometricCredential } from '@hygie/domain';
import { z } from 'zod';
import { biometricErrorMessage, defaultDeviceName } from '../lib/biometric-messages';
import { passkeysSupported, registerPasskey } from '../lib/biometrics';
import { ConfirmDialog } from './confirm-dialog';
import { RecoveryCodesDialog } from './recovery-codes-dialog';
import { StepUpPassword, useStepUp } from './step-up';
import { errorMessage } from '../lib/error-message';
import { formatLongDate } from '../lib/format-date';
import { useServices } from '../lib/services';

const CREDENTIALS_KEY = ['biometric-credentials'] as const;
const okSchema = z.object({ ok: z.literal(true) });

/**
 * "My devices": the user's biometric keys (passkeys and app keys) with revocation, and "add a
 * passkey" in browsers (GET/DELETE /api/biometrics/credentials, passkey registration).
 */
export function BiometricKeys() {
  const { t, i18n } = useTranslation();
  const { api } = useServices();
  const [passkeys] = useState(() => passkeysSupported());
  const [revoking, setRevoking] = useState<BiometricCredential | null>(null);
  const [adding, setAdding] = useState(false);
  // The first recovery codes, when the new passkey brought them: shown once.
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const credentials = useQuery({
    queryKey: CREDENTIALS_KEY,
    queryFn: ({ signal }) =>
      api.get('/biometrics/credentials', biometricCredentialListSchema, signal),
  });
  const language = i18n.language;

  return (
    <Box component="section" aria-labelledby="biometric-keys-title" sx={{ mt: 4 }}>
      <Typography id="biometric-keys-title" component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('biometrics:keys.title')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('biometrics:keys.intro')}</Typography>
      {credentials.isError && (
        <Alert severity="error" role="alert" data-testid="biometric-error" sx={{ mb: 2 }}>
          {t('biometrics:keys.loadFailed')}
        </Alert>
      )}
      {credentials.data?.length === 0 && (
        <Typography sx={{ mb: 2 }}>{t('biometrics:keys.empty')}</Typography>
      )}
      {!!credentials.data?.length && (
        <List sx={{ mb: 2 }}>
          {credentials.data.map((key) => (
            <ListItem
              key={key.id}
              divider
              data-testid="biometric-key-row"
              secondaryAction={
                <Button
                  color="error"
                  onClick={() => setRevoking(key)}
                  aria-label={t('biometrics:keys.revokeLabel', { name: key.deviceName })}
                  data-testid="biometric-key-revoke"
                >
                  {t('biometrics:keys.revoke')}
                </Button>
              }
              sx={{ pe: 14 }}
            >
              <ListItemText
                primary={key.deviceName}
                secondary={[
                  t(`biometrics:keys.kind.${key.kind}`),
                  t('biometrics:keys.created', { date: formatLongDate(key.createdAt, language) }),
                  key.lastUsedAt
                    ? t('biometrics:keys.lastUsed', {
                        date: formatLongDate(key.lastUsedAt, language),
                      })
                    : t('biometrics:keys.neverUsed'),
                ].join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      )}
      {passkeys && (
        <Button
          variant="outlined"
          startIcon={<AddIcon />}
          onClick={() => setAdding(true)}
          data-testid="passkey-add"
        >
          {t('biometrics:keys.add')}
        </Button>
      )}
      {revoking && <RevokeDialog credential={revoking} onClose={() => setRevoking(null)} />}
      {adding && (
        <AddPasskeyDialog
          onClose={(codes) => {
            setAdding(false);
            if (codes) setRecoveryCodes(codes);
          }}
        />
      )}
      {recoveryCodes && (
        <RecoveryCodesDialog codes={recoveryCodes} onClose={() => setRecoveryCodes(null)} />
      )}
    </Box>
  );
}

function RevokeDialog({
  credential,
  onClose,
}: {
  credential: BiometricCredential;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { api, notifications } = useServices();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () =>
      api.request('DELETE', `/biometrics/credentials/${encodeURIComponent(credential.id)}`, {
        schema: okSchema,
      }),
    onSuccess: async () => {
      notifications.notify(t('biometrics:keys.revoked'), 'success');
      onClose();
      await queryClient.invalidateQueries({ queryKey: CREDENTIALS_KEY });
    },
  });
  return (
    <ConfirmDialog
      open
      title={t('biometrics:keys.confirmTitle')}
      confirmLabel={t('biometrics:keys.confirm')}
      cancelLabel={t('biometrics:keys.cancel')}
      destructive
      pending={revoke.isPending}
      onConfirm={() => revoke.mutate()}
      onClose={onClose}
    >
      {revoke.isError && (
        <Alert severity="error" role="alert" data-testid="biometric-error" sx={{ mb: 2 }}>
          {errorMessage(i18n, revoke.error)}
        </Alert>
      )}
      {t('biometrics:keys.confirmText', { name: credential.deviceName })}
    </ConfirmDialog>
  );
}

/** Closed with the first recovery codes when the new passkey brought them. */
function AddPasskeyDialog({ onClose }: { onClose: (recoveryCodes?: string[]) => void }) {
  const { t, i18n } = useTranslation();
  const { api, notifications } = useServices();
  const queryClient = useQueryClient();
  const [deviceName, setDeviceName] = useState(() =>
    defaultDeviceName(t, navigator.userAgent, false),
  );
  const add = useMutation({
    mutationFn: (name: string) => registerPasskey(api, name),
    onSuccess: async (recoveryCodes) => {
      notifications.notify(t('biometrics:keys.added'), 'success');
      onClose(recoveryCodes);
      await queryClient.invalidateQueries({ queryKey: CREDENTIALS_KEY });
      if (recoveryCodes) await queryClient.invalidateQueries({ queryKey: ['recovery-codes'] });
    },
  });
  const stepUp = useStepUp(add.error);
  // A refusal for want of a recent proof is not a failure: the password is asked below.
  const failure = add.isError && !stepUp.required ? biometricErrorMessage(i18n, add.error) : null;
  const nameMissing = !deviceName.trim();
  const pending = add.isPending || stepUp.pending;
  return (
    <Dialog
      open
      onClose={pending ? undefined : () => onClose()}
      aria-labelledby="passkey-add-title"
    >
      <DialogTitle id="passkey-add-title">{t('biometrics:keys.addTitle')}</DialogTitle>
      <Box
        component="form"
        noValidate
        aria-labelledby="passkey-add-title"
        onSubmit={(event) => {
          event.preventDefault();
          if (!nameMissing) stepUp.run(() => add.mutate(deviceName.trim()));
        }}
      >
        <DialogContent>
          {failure && (
            <Alert severity="error" role="alert" data-testid="biometric-error" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          )}
          <DialogContentText sx={{ mb: 2 }}>{t('biometrics:keys.addText')}</DialogContentText>
          <TextField
            id="passkey-device-name"
            label={t('biometrics:enrol.deviceName')}
            helperText={nameMissing ? t('validation:field_required') : undefined}
            error={nameMissing}
            required
            fullWidth
            value={deviceName}
            onChange={(event) => setDeviceName(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
          <Box sx={{ mt: 2 }}>
            <StepUpPassword stepUp={stepUp} id="passkey-password" />
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onClose()} disabled={pending}>
            {t('biometrics:keys.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={pending} data-testid="passkey-create">
            {t('biometrics:keys.create')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
