import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import GlobalStyles from '@mui/material/GlobalStyles';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { recoveryCodesSchema, recoveryCodesStatusSchema } from '@hygie/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { StepUpPassword, useStepUp } from '../../components/step-up';
import { errorMessage } from '../../lib/error-message';
import { formatLongDate } from '../../lib/format-date';
import { useServices } from '../../lib/services';

export const RECOVERY_CODES_KEY = ['recovery-codes'] as const;

/** The text file of the codes: a title, the date, one code a line. */
export function recoveryCodesText(title: string, codes: readonly string[], date: string): string {
  return [title, date, '', ...codes, ''].join('\n');
}

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

/**
 * The codes, shown once: download as a text file, print (only the codes are printed), and closed
 * once the user says they are saved.
 */
export function RecoveryCodesDialog({
  codes,
  onClose,
}: {
  codes: readonly string[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [saved, setSaved] = useState(false);
  const title = t('account:recoveryCodes.shownTitle');

  const download = () => {
    const date = formatLongDate(new Date().toISOString(), i18n.language);
    const blob = new Blob([recoveryCodesText(title, codes, date)], { type: 'text/plain' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = t('account:recoveryCodes.fileName');
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Dialog
      open
      onClose={() => {
        if (saved) onClose();
      }}
      aria-labelledby="recovery-codes-shown-title"
      aria-describedby="recovery-codes-shown-text"
      data-testid="recovery-codes-dialog"
    >
      {/* Printing shows the codes only, not the page behind the dialog. */}
      <GlobalStyles
        styles={{
          '@media print': {
            'body *': { visibility: 'hidden' },
            '[data-print-area], [data-print-area] *': { visibility: 'visible' },
            '[data-print-area]': { position: 'absolute', insetInlineStart: 0, top: 0 },
          },
        }}
      />
      <DialogTitle id="recovery-codes-shown-title">{title}</DialogTitle>
      <DialogContent>
        <Typography id="recovery-codes-shown-text" sx={{ mb: 2 }}>
          {t('account:recoveryCodes.shownText')}
        </Typography>
        <Box data-print-area="" sx={{ mb: 2 }}>
          <Typography sx={{ display: 'none', '@media print': { display: 'block', mb: 2 } }}>
            {title}
          </Typography>
          <Box
            component="ol"
            dir="ltr"
            aria-label={t('account:recoveryCodes.listLabel')}
            data-testid="recovery-codes-list"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'repeat(2, max-content)',
              columnGap: 4,
              rowGap: 1,
              fontFamily: 'monospace',
              fontSize: '1.1rem',
              m: 0,
              ps: 4,
            }}
          >
            {codes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </Box>
        </Box>
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2 }}>
          <Button variant="outlined" onClick={download} data-testid="recovery-codes-download">
            {t('account:recoveryCodes.download')}
          </Button>
          <Button
            variant="outlined"
            onClick={() => window.print()}
            data-testid="recovery-codes-print"
          >
            {t('account:recoveryCodes.print')}
          </Button>
        </Box>
        <FormControlLabel
          control={
            <Checkbox
              checked={saved}
              onChange={(_event, checked) => setSaved(checked)}
              slotProps={{ input: { id: 'recovery-codes-saved' } }}
            />
          }
          label={t('account:recoveryCodes.saved')}
        />
      </DialogContent>
      <DialogActions>
        <Button
          variant="contained"
          disabled={!saved}
          onClick={onClose}
          data-testid="recovery-codes-done"
        >
          {t('account:recoveryCodes.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
