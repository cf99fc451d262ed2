import type { ChangeEvent } from 'react';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

/** Digits typed so far, as DD/MM/YYYY: the slashes come by themselves. */
export function formatDateInput(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 8);
  if (digits.length <= 2) return digits;
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`;
}

/**
 * A date typed as DD/MM/YYYY (birth dates: 00 for an unknown day or month). Slashes are added
 * while typing; deleting works as usual. Validate with the domain's `birthDateSchema`.
 */
export function DateField({ helperText, slotProps, onChange, ...props }: TextFieldProps) {
  const { t } = useTranslation();
  const handleChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    // An InputEvent says what was typed; a plain change event (no `inputType`) is not a deletion.
    const native = event.nativeEvent;
    const deleting =
      'inputType' in native &&
      typeof native.inputType === 'string' &&
      native.inputType.startsWith('delete');
    if (!deleting) {
      event.target.value = formatDateInput(event.target.value);
    }
    onChange?.(event);
  };
  return (
    <TextField
      {...props}
      onChange={handleChange}
      placeholder={t('common:date.placeholder')}
      helperText={helperText ?? t('common:date.help')}
      slotProps={{
        ...slotProps,
        htmlInput: { inputMode: 'numeric', dir: 'ltr', maxLength: 10, ...slotProps?.htmlInput },
      }}
    />
  );
}
