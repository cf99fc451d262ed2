import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { REQUIRED_LEVELS, type RequiredLevel } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { dataAttributes } from '../../lib/data-attributes';
import { errorMessage } from '../../lib/error-message';
import { useServices } from '../../lib/services';
import { useAssuranceSettings, useUpdateAccountMinimumLevel } from './api/assurance-settings';

const CHOICES = ['none', ...REQUIRED_LEVELS] as const;
type Choice = (typeof CHOICES)[number];

const LABELS = {
  none: 'admin:platforms.levels.none',
  low: 'admin:platforms.levels.low',
  substantial: 'admin:platforms.levels.substantial',
  high: 'admin:platforms.levels.high',
} as const satisfies Record<Choice, string>;

function levelOf(choice: string): RequiredLevel | null {
  return REQUIRED_LEVELS.find((level) => level === choice) ?? null;
}

function AccountMinimumForm({ saved }: { saved: RequiredLevel | null }) {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const update = useUpdateAccountMinimumLevel();
  const [level, setLevel] = useState<RequiredLevel | null>(saved);
  return (
    <Box
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate(level, {
          onSuccess: () => notifications.notify(t('common:messages.modified'), 'success'),
        });
      }}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}
    >
      {update.isError && (
        <Alert severity="error" role="alert" sx={{ flexBasis: '100%' }} data-testid="form-error">
          {errorMessage(i18n, update.error)}
        </Alert>
      )}
      <TextField
        id="account-minimum-level"
        label={t('admin:assurance.label')}
        select
        value={level ?? 'none'}
        onChange={(event) => setLevel(levelOf(event.target.value))}
        sx={{ minWidth: 240 }}
        slotProps={{
          select: { native: true },
          inputLabel: { shrink: true },
          htmlInput: dataAttributes({ 'data-testid': 'account-minimum-level' }),
        }}
      >
        {CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {t(LABELS[choice])}
          </option>
        ))}
      </TextField>
      <Button
        type="submit"
        variant="contained"
        loading={update.isPending}
        disabled={level === saved}
        data-testid="account-minimum-save"
        sx={{ mt: 1 }}
      >
        {t('admin:assurance.save')}
      </Button>
    </Box>
  );
}

/**
 * The account area's minimum level (docs/oidc.md): below it, the pages of the account area send
 * the user to the step-up screen.
 */
export function AssuranceSetting() {
  const { t, i18n } = useTranslation();
  const settings = useAssuranceSettings();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="assurance-setting-title"
      sx={{ p: { xs: 2, sm: 3 } }}
      data-testid="assurance-setting"
    >
      <Typography id="assurance-setting-title" variant="h6" component="h3">
        {t('admin:assurance.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('admin:assurance.description')}
      </Typography>
      {settings.isError && (
        <Alert severity="error" role="alert" data-testid="form-error">
          {errorMessage(i18n, settings.error)}
        </Alert>
      )}
      {settings.isPending && <Typography role="status">{t('common:loading')}</Typography>}
      {settings.data && (
        <AccountMinimumForm
          key={settings.data.accountMinimumLevel ?? 'none'}
          saved={settings.data.accountMinimumLevel}
        />
      )}
    </Paper>
  );
}
