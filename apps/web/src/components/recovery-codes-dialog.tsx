import { useState } from 'react';
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
import { useTranslation } from 'react-i18next';
import { formatLongDate } from '../lib/format-date';

/** The text file of the codes: a title, the date, one code a line. */
export function recoveryCodesText(title: string, codes: readonly string[], date: string): string {
  return [title, date, '', ...codes, ''].join('\n');
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
              // Wide enough for the second column's marker ("10.") outside its item.
              columnGap: 7,
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
