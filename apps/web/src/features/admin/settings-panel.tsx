import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { DurationUnit, Setting } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ApiError, errorDataOf } from '../../lib/api-client';
import { dataAttributes } from '../../lib/data-attributes';
import { errorMessage, isolate } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format-date-time';
import { useResetSetting } from './api/reset-setting';
import { AssuranceSetting } from './assurance-setting';
import { useSettings } from './api/settings';
import { useUpdateSetting } from './api/update-setting';
import { formatDuration, fromAmount, isDurationUnit, toAmount, unitsFor } from './duration';

function SettingRow({ setting }: { setting: Setting }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateSetting();
  const reset = useResetSetting();
  const initial = toAmount(setting, setting.value ?? setting.defaultValue ?? setting.min);
  const [amount, setAmount] = useState(String(initial.amount));
  const [unit, setUnit] = useState<DurationUnit>(initial.unit);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  const disabled = setting.value === null;
  const id = `setting-${setting.key}`;
  const duration = (value: number | null) =>
    value === null ? t('admin:settings.disabled') : formatDuration(setting, value, i18n.language);

  const describeFailure = (error: unknown) => {
    const base = errorMessage(i18n, error);
    const bounds = errorDataOf(error, 'settings_update_failed');
    if (bounds) {
      const { min, max } = bounds;
      if (typeof min === 'number' && typeof max === 'number') {
        return `${base} ${t('admin:settings.between', { min: duration(min), max: duration(max) })}`;
      }
      if (typeof min === 'number')
        return `${base} ${t('admin:settings.atLeast', { min: duration(min) })}`;
      if (typeof max === 'number')
        return `${base} ${t('admin:settings.atMost', { max: duration(max) })}`;
    }
    return base;
  };

  const save = (value: number | null) => {
    setFailure(null);
    update.mutate(
      { key: setting.key, value },
      {
        onSuccess: (saved) => {
          if (saved.value !== null) {
            const next = toAmount(saved, saved.value);
            setAmount(String(next.amount));
            setUnit(next.unit);
          }
        },
        onError: (error) => setFailure(describeFailure(error)),
      },
    );
  };

  const onSave = () => {
    setFieldError(null);
    const number = Number(amount);
    if (amount.trim() === '' || !Number.isInteger(number) || number < 1) {
      setFieldError(t('admin:settings.amountInvalid'));
      return;
    }
    const value = fromAmount(setting, number, unit);
    if (value === null) {
      setFieldError(t('admin:settings.amountInvalid'));
      return;
    }
    save(value);
  };

  const onToggle = (disable: boolean) => {
    if (disable) save(null);
    else onSave();
  };

  const onReset = () => {
    setFailure(null);
    reset.mutate(setting.key, {
      onSuccess: (saved) => {
        const next = toAmount(saved, saved.value ?? saved.defaultValue ?? saved.min);
        setAmount(String(next.amount));
        setUnit(next.unit);
      },
      onError: (error) => setFailure(errorMessage(i18n, error)),
      onSettled: () => setConfirmReset(false),
    });
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={`${id}-title`}
      sx={{ p: { xs: 2, sm: 3 } }}
      data-testid="setting-row"
      data-setting-key={setting.key}
    >
      <Typography id={`${id}-title`} variant="h6" component="h3">
        {t(`admin:settings.keys.${setting.key}.title`)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t(`admin:settings.keys.${setting.key}.description`)}
      </Typography>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} data-testid="form-error">
          {failure}
        </Alert>
      )}
      {setting.nullable && (
        <FormControlLabel
          sx={{ mb: 2, display: 'flex' }}
          control={
            <Switch
              checked={disabled}
              onChange={(event) => onToggle(event.target.checked)}
              disabled={update.isPending}
              slotProps={{ input: dataAttributes({ 'data-testid': 'setting-disable' }) }}
            />
          }
          label={t('admin:settings.disable')}
        />
      )}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <TextField
          id={`${id}-amount`}
          label={t('admin:settings.amount')}
          type="number"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          disabled={disabled}
          error={!!fieldError}
          helperText={fieldError ?? undefined}
          sx={{ width: { xs: '100%', sm: '12rem' } }}
          slotProps={{
            htmlInput: { min: 1, step: 1, inputMode: 'numeric', 'data-testid': 'setting-amount' },
          }}
        />
        <TextField
          id={`${id}-unit`}
          label={t('admin:settings.unit')}
          select
          value={unit}
          onChange={(event) => {
            if (isDurationUnit(event.target.value)) setUnit(event.target.value);
          }}
          disabled={disabled}
          sx={{ width: { xs: '100%', sm: '12rem' } }}
          slotProps={{
            select: { native: true },
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'setting-unit' },
          }}
        >
          {unitsFor(setting).map((option) => (
            <option key={option} value={option}>
              {t(`admin:units.${option}`)}
            </option>
          ))}
        </TextField>
        <Button
          variant="contained"
          onClick={onSave}
          disabled={disabled}
          loading={update.isPending}
          sx={{ mt: 1 }}
          data-testid="setting-save"
        >
          {t('admin:settings.save')}
        </Button>
        <Button
          variant="outlined"
          onClick={() => setConfirmReset(true)}
          sx={{ mt: 1 }}
          data-testid="setting-reset"
        >
          {t('admin:settings.reset')}
        </Button>
      </Box>
      <Typography variant="body2" sx={{ mt: 2 }} data-testid="setting-current">
        {t('admin:settings.current', { value: duration(setting.value) })}
        {' · '}
        {t('admin:settings.default', { value: duration(setting.defaultValue) })}
      </Typography>
      <Typography variant="body2" color="text.secondary" data-testid="setting-updated">
        {setting.updatedAt
          ? t('admin:settings.updated', {
              date: formatDateTime(setting.updatedAt, i18n.language),
              who: isolate(setting.updatedBy ?? t('admin:settings.unknownAdmin')),
            })
          : t('admin:settings.neverUpdated')}
      </Typography>
      <ConfirmDialog
        open={confirmReset}
        title={t('admin:settings.resetTitle')}
        confirmLabel={t('admin:settings.reset')}
        pending={reset.isPending}
        onConfirm={onReset}
        onClose={() => setConfirmReset(false)}
      >
        {t('admin:settings.resetText', {
          setting: t(`admin:settings.keys.${setting.key}.title`),
          value: duration(setting.defaultValue),
        })}
      </ConfirmDialog>
    </Paper>
  );
}

/** (a) Settings: each edited as an amount and a unit, disabled, or reset to its default. */
export function SettingsPanel() {
  const { t, i18n } = useTranslation();
  const settings = useSettings();
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography>{t('admin:settings.intro')}</Typography>
      {settings.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('common:loading')} />
        </Box>
      )}
      {settings.isError && (
        <Alert severity="error" role="alert" data-testid="form-error">
          {settings.error instanceof ApiError && settings.error.code
            ? errorMessage(i18n, settings.error)
            : t('errors:settings_load_failed')}
        </Alert>
      )}
      {settings.data?.map((setting) => (
        <SettingRow key={`${setting.key}-${setting.updatedAt ?? ''}`} setting={setting} />
      ))}
      <AssuranceSetting />
    </Box>
  );
}
