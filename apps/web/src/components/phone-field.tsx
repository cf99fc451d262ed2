import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

/**
 * A mobile phone number: French by default ("06 12 34 56 78"), international accepted
 * ("+32 470 12 34 56"). Validate it with the domain's `mobilePhoneSchema`, which outputs E.164.
 */
export function PhoneField({ helperText, slotProps, ...props }: Omit<TextFieldProps, 'type'>) {
  const { t } = useTranslation();
  return (
    <TextField
      {...props}
      type="tel"
      autoComplete={props.autoComplete ?? 'tel'}
      helperText={helperText ?? t('common:phone.help')}
      slotProps={{
        ...slotProps,
        // Numbers read left to right, in Arabic too.
        htmlInput: { inputMode: 'tel', dir: 'ltr', maxLength: 30, ...slotProps?.htmlInput },
      }}
    />
  );
}
