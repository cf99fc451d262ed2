import { useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { Icon } from './icons';
import { useTexts } from '../../lib/environment';

export interface PlainTextFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'placeholder'
> {
  id: string;
  label: string;
  helperText?: string | null;
  error?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  /** After the input, inside its border (the password's show/hide button). */
  endAdornment?: ReactNode;
}

/**
 * An outlined text field of the first screens (MUI TextField's look, without MUI): the label in
 * the field, on its border once focused or filled; the asterisk of a required field is hidden
 * from assistive technologies (the input is `required`); the help or error text describes it.
 */
export function PlainTextField({
  id,
  label,
  helperText,
  error = false,
  required,
  inputRef,
  endAdornment,
  ...input
}: PlainTextFieldProps) {
  const helperId = `${id}-helper-text`;
  return (
    <div className={error ? 'hy-field hy-field-invalid' : 'hy-field'}>
      <div className="hy-field-box">
        <input
          {...input}
          id={id}
          ref={inputRef}
          required={required}
          // A blank placeholder: the label sits in the field while it is empty (:placeholder-shown).
          placeholder=" "
          className="hy-field-input"
          aria-invalid={error}
          aria-describedby={helperText ? helperId : undefined}
        />
        <label htmlFor={id} className="hy-field-label">
          {label}
          {required && <span aria-hidden="true">{'\u2009*'}</span>}
        </label>
        {endAdornment && <div className="hy-field-adornment">{endAdornment}</div>}
      </div>
      {helperText && (
        <p id={helperId} className="hy-field-helper">
          {helperText}
        </p>
      )}
    </div>
  );
}

/** A password field with a show/hide button (the plain twin of components/password-field). */
export function PlainPasswordField(props: Omit<PlainTextFieldProps, 'type' | 'endAdornment'>) {
  const { t } = useTexts();
  const [visible, setVisible] = useState(false);
  return (
    <PlainTextField
      {...props}
      type={visible ? 'text' : 'password'}
      endAdornment={
        <button
          type="button"
          className="hy-icon-button"
          aria-label={t(visible ? 'common:password.hide' : 'common:password.show')}
          onClick={() => setVisible((value) => !value)}
        >
          <Icon name={visible ? 'visibilityOff' : 'visibility'} />
        </button>
      }
    />
  );
}
