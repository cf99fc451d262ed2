import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useTranslation } from 'react-i18next';

/** A password input with a show/hide toggle button. */
export function PasswordField(props: Omit<TextFieldProps, 'type'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      slotProps={{
        ...props.slotProps,
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                edge="end"
                aria-label={t(visible ? 'common:password.hide' : 'common:password.show')}
                onClick={() => setVisible((value) => !value)}
              >
                {visible ? <VisibilityOff aria-hidden="true" /> : <Visibility aria-hidden="true" />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
