import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import {
  okSchema,
  totpConfirmedSchema,
  totpEnrolmentSchema,
  totpStatusSchema,
} from '@hygie/domain';
import { CodeInput } from '../../components/code-input';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { StepUpPassword, useStepUp } from '../../components/step-up';
import { errorMessage } from '../../lib/error-message';
import { formatLongDate } from '../../lib/format-date';
import { useServices } from '../../lib/services';
import { RecoveryCodesDialog } from '../../components/recovery-codes-dialog';
import { RECOVERY_CODES_KEY } from './recovery-codes';

const TOTP_KEY = ['totp'] as const;

/** The key of an `otpauth://` URI, grouped by 4 for typing it into an app by hand. */
export function groupedKey(otpauthUri: string): string {
  const secret = new URL(otpauthUri).searchParams.get('secret') ?? '';
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * "My devices": the authenticator app (GET/POST/DELETE /api/me/totp) — enrolled behind the
 * step-up, shown once as a QR code and a key to type, confirmed by a first code; removable.
 */
export function AuthenticatorApp() {
  const { t, i18n } = useTranslation();
  const { api } = useServices();
  const [enrolling, setEnrolling] = useState(false);
  const [removing, setRemoving] = useState(false);
  // The first recovery codes, when the app brought them: shown once.
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const status = useQuery({
    queryKey: TOTP_KEY,
    queryFn: ({ signal }) => api.get('/me/totp', totpStatusSchema, signal),
  });
  const enabledAt = status.data?.enabledAt ?? null;

  return (
    <Box component="section" aria-labelledby="totp-title" sx={{ mt: 4 }}>
      <Typography id="totp-title" component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('account:totp.title')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('account:totp.intro')}</Typography>
      {status.isError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {t('account:totp.loadFailed')}
        </Alert>
      )}
      {status.data && enabledAt !== null && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Typography data-testid="totp-status">
            {t('account:totp.enabledSince', {
              date: formatLongDate(new Date(enabledAt).toISOString(), i18n.language),
            })}
          </Typography>
          <Button color="error" onClick={() => setRemoving(true)} data-testid="totp-remove">
            {t('account:totp.remove')}
          </Button>
        </Box>
      )}
      {status.data && enabledAt === null && (
        <Button variant="outlined" onClick={() => setEnrolling(true)} data-testid="totp-add">
          {t('account:totp.add')}
        </Button>
      )}
      {enrolling && (
        <EnrolDialog onClose={() => setEnrolling(false)} onRecoveryCodes={setRecoveryCodes} />
      )}
      {recoveryCodes && (
        <RecoveryCodesDialog codes={recoveryCodes} onClose={() => setRecoveryCodes(null)} />
      )}
      {removing && <RemoveDialog onClose={() => setRemoving(false)} />}
    </Box>
  );
}

/** Step-up, then the QR code and the key, then the first code (and maybe the first recovery codes). */
function EnrolDialog({
  onClose,
  onRecoveryCodes,
}: {
  onClose: () => void;
  onRecoveryCodes: (codes: string[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const { api, notifications } = useServices();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [qr, setQr] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () => api.post('/me/totp', {}, totpEnrolmentSchema),
  });
  const confirm = useMutation({
    mutationFn: (value: string) =>
      api.post('/me/totp/confirm', { code: value }, totpConfirmedSchema),
    onSuccess: async ({ recoveryCodes }) => {
      notifications.notify(t('account:totp.enabled'), 'success');
      onClose();
      if (recoveryCodes) onRecoveryCodes(recoveryCodes);
      await queryClient.invalidateQueries({ queryKey: TOTP_KEY });
      await queryClient.invalidateQueries({ queryKey: RECOVERY_CODES_KEY });
    },
  });
  const stepUp = useStepUp(start.error);
  const uri = start.data?.otpauthUri ?? null;
  useEffect(() => {
    if (!uri) return;
    let live = true;
    void QRCode.toDataURL(uri, { margin: 1, width: 200 }).then((url) => {
      if (live) setQr(url);
    });
    return () => {
      live = false;
    };
  }, [uri]);
  const startFailure = start.isError && !stepUp.required ? errorMessage(i18n, start.error) : null;
  const confirmFailure = confirm.isError ? errorMessage(i18n, confirm.error) : null;

  return (
    <ConfirmDialog
      open
      title={t('account:totp.enrolTitle')}
      confirmLabel={uri ? t('account:totp.confirm') : t('account:totp.continue')}
      cancelLabel={t('account:totp.cancel')}
      pending={start.isPending || confirm.isPending || stepUp.pending}
      onConfirm={() => {
        if (uri) {
          if (code.length === 6) confirm.mutate(code);
        } else stepUp.run(() => start.mutate());
      }}
      onClose={onClose}
    >
      {startFailure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {startFailure}
        </Alert>
      )}
      {!uri && (
        <>
          <Box sx={{ mb: 2 }}>{t('account:totp.enrolIntro')}</Box>
          <StepUpPassword stepUp={stepUp} id="totp-password" />
        </>
      )}
      {uri && (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography>{t('account:totp.scan')}</Typography>
          {qr && (
            <Box
              component="img"
              src={qr}
              alt={t('account:totp.qrAlt')}
              width={200}
              height={200}
              sx={{ alignSelf: 'center' }}
              data-testid="totp-qr"
            />
          )}
          <Typography>{t('account:totp.manual')}</Typography>
          <Typography
            component="code"
            dir="ltr"
            aria-label={t('account:totp.keyLabel')}
            sx={{ fontFamily: 'monospace', fontSize: '1.1rem', alignSelf: 'center' }}
            data-testid="totp-key"
          >
            {groupedKey(uri)}
          </Typography>
          {confirmFailure && (
            <Alert severity="error" role="alert" data-testid="totp-error">
              {confirmFailure}
            </Alert>
          )}
          <CodeInput
            label={t('account:totp.codeLabel')}
            value={code}
            onChange={setCode}
            autoFocus
          />
        </Box>
      )}
    </ConfirmDialog>
  );
}

/** The confirmed removal, asking the password again when the session's last proof is too old. */
function RemoveDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { api, notifications } = useServices();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api.request('DELETE', '/me/totp', { schema: okSchema }),
    onSuccess: async () => {
      notifications.notify(t('account:totp.removed'), 'success');
      onClose();
      await queryClient.invalidateQueries({ queryKey: TOTP_KEY });
    },
  });
  const stepUp = useStepUp(remove.error);
  const failure = remove.isError && !stepUp.required ? errorMessage(i18n, remove.error) : null;
  return (
    <ConfirmDialog
      open
      title={t('account:totp.removeTitle')}
      confirmLabel={t('account:totp.remove')}
      cancelLabel={t('account:totp.cancel')}
      destructive
      pending={remove.isPending || stepUp.pending}
      onConfirm={() => stepUp.run(() => remove.mutate())}
      onClose={onClose}
    >
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <Box sx={{ mb: 2 }}>{t('account:totp.removeText')}</Box>
      <StepUpPassword stepUp={stepUp} id="totp-remove-password" />
    </ConfirmDialog>
  );
}
