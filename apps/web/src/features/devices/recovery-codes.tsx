import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { recoveryCodesSchema, recoveryCodesStatusSchema } from '@hygie/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RecoveryCodesDialog } from '../../components/recovery-codes-dialog';
import { StepUpPassword, useStepUp } from '../../components/step-up';
import { errorMessage } from '../../lib/error-message';
import { formatLongDate } from '../../lib/format-date';
import { useServices } from '../../lib/services';

export const RECOVERY_CODES_KEY = ['recovery-codes'] as const;

/**
 * "My devices": the recovery codes (GET/POST /api/me/recovery-codes) — how many are left, and a
 * new set behind the step-up, shown once.
 */
export function RecoveryCodes() {
  const { t, i18n } = useTranslation();
  const { api } = useServices();
  const [generating, setGenerating] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const status = useQuery({
    queryKey: RECOVERY_CODES_KEY,
    queryFn: ({ signal }) => api.get('/me/recovery-codes', recoveryCodesStatusSchema, signal),
  });
  const remaining = status.data?.remaining ?? 0;
  const createdAt = status.data?.createdAt ?? null;

  return (
    <Box component="section" aria-labelledby="recovery-codes-title" sx={{ mt: 4 }}>
      <Typography id="recovery-codes-title" component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('account:recoveryCodes.title')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('account:recoveryCodes.intro')}</Typography>
      {status.isError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {t('account:recoveryCodes.loadFailed')}
        </Alert>
      )}
      {status.data && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Typography data-testid="recovery-codes-status">
            {createdAt === null
              ? t('account:recoveryCodes.none')
              : t('account:recoveryCodes.remaining', {
                  count: remaining,
                  date: formatLongDate(new Date(createdAt).toISOString(), i18n.language),
                })}
          </Typography>
          <Button
            variant="outlined"
            onClick={() => setGenerating(true)}
            data-testid="recovery-codes-generate"
          >
            {t('account:recoveryCodes.generate')}
          </Button>
        </Box>
      )}
      {status.data && createdAt !== null && remaining === 0 && (
        <Alert severity="warning" sx={{ mt: 2 }} data-testid="recovery-codes-empty">
          {t('account:recoveryCodes.noneLeft')}
        </Alert>
      )}
      {generating && (
        <GenerateDialog
          onClose={() => setGenerating(false)}
          onCodes={(made) => {
            setGenerating(false);
            setCodes(made);
          }}
        />
      )}
      {codes && <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />}
    </Box>
  );
}

/** The step-up, then a new set replacing the old one. */
function GenerateDialog({
  onClose,
  onCodes,
}: {
  onClose: () => void;
  onCodes: (codes: string[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const generate = useMutation({
    mutationFn: () => api.post('/me/recovery-codes', {}, recoveryCodesSchema),
    onSuccess: async ({ codes }) => {
      onCodes(codes);
      await queryClient.invalidateQueries({ queryKey: RECOVERY_CODES_KEY });
    },
  });
  const stepUp = useStepUp(generate.error);
  const failure = generate.isError && !stepUp.required ? errorMessage(i18n, generate.error) : null;
  return (
    <ConfirmDialog
      open
      title={t('account:recoveryCodes.generateTitle')}
      confirmLabel={t('account:recoveryCodes.generate')}
      cancelLabel={t('account:recoveryCodes.cancel')}
      pending={generate.isPending || stepUp.pending}
      onConfirm={() => stepUp.run(() => generate.mutate())}
      onClose={onClose}
    >
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <Box sx={{ mb: 2 }}>{t('account:recoveryCodes.generateText')}</Box>
      <StepUpPassword stepUp={stepUp} id="recovery-codes-password" />
    </ConfirmDialog>
  );
}
