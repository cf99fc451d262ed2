import {
  useEffect,
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type ClipboardEvent,
  type KeyboardEvent,
  type Ref,
} from 'react';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import { alpha } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { CODES } from '@hygie/domain';

export interface CodeInputProps {
  /** The digits typed so far (at most CODES.length); '' when empty. */
  value: string;
  onChange: (value: string) => void;
  /** Translated name of the group ("Code de vérification"). */
  label: string;
  /** Translated error text; marks every digit invalid. */
  error?: string | undefined;
  /** Translated help shown under the digits when there is no error. */
  helperText?: string | undefined;
  disabled?: boolean;
  autoFocus?: boolean;
  /** Receives the first digit's input (react-hook-form focuses it on a validation error). */
  inputRef?: Ref<HTMLInputElement>;
  onBlur?: () => void;
}

const LENGTH = CODES.length;
const EMPTY: readonly string[] = Array.from({ length: LENGTH }, () => '');

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

/** The cells of a value: one digit each, from the start. */
function cellsOf(value: string): string[] {
  const digits = digitsOf(value).slice(0, LENGTH);
  return EMPTY.map((_, index) => digits[index] ?? '');
}

/**
 * A one-time code typed in LENGTH single-digit fields. Typing a digit moves to the next field,
 * Backspace in an empty field goes back, arrows move, and pasting (or an autofilled SMS code)
 * anywhere fills every field — spaces and other separators ignored. Codes read left to right in
 * every language.
 */
export function CodeInput({
  value,
  onChange,
  label,
  error,
  helperText,
  disabled = false,
  autoFocus = false,
  inputRef,
  onBlur,
}: CodeInputProps) {
  const { t } = useTranslation();
  const id = useId();
  const legendId = `${id}-label`;
  const helpId = `${id}-help`;
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const [cells, setCells] = useState<string[]>(() => cellsOf(value));
  const [previousValue, setPreviousValue] = useState(value);

  // The form may reset or prefill the value: follow it when it is not what the cells hold.
  if (value !== previousValue) {
    setPreviousValue(value);
    if (value !== cells.join('')) setCells(cellsOf(value));
  }

  const focus = (index: number) => {
    const input = inputs.current[Math.max(0, Math.min(LENGTH - 1, index))];
    input?.focus();
    input?.select();
  };

  // The first digit takes the focus once the step is on screen: in an effect, so that it comes
  // after the step heading's own focus (the `autoFocus` attribute acts before effects, and the
  // heading took the focus back), and once per mount.
  useEffect(() => {
    if (autoFocus) inputs.current[0]?.focus();
  }, [autoFocus]);

  const update = (next: string[]) => {
    setCells(next);
    onChange(next.join(''));
  };

  /** Puts `digits` in the cells from `start`, then focuses the cell after the last one filled. */
  const fill = (start: number, digits: string) => {
    const next = [...cells];
    const from = digits.length >= LENGTH ? 0 : start;
    const typed = digits.slice(0, LENGTH - from);
    [...typed].forEach((digit, offset) => {
      next[from + offset] = digit;
    });
    update(next);
    focus(from + typed.length);
  };

  const handleChange = (index: number, event: ChangeEvent<HTMLInputElement>) => {
    const digits = digitsOf(event.target.value);
    const current = cells[index] ?? '';
    if (digits.length === 0) {
      update(cells.map((cell, position) => (position === index ? '' : cell)));
      return;
    }
    if (digits.length === 1 || (digits.length === 2 && current !== '')) {
      // One digit typed (over the one already there, when the caret was not on it).
      const typed = digits.length === 1 ? digits : digits[0] === current ? digits[1] : digits[0];
      update(cells.map((cell, position) => (position === index ? (typed ?? '') : cell)));
      if (index < LENGTH - 1) focus(index + 1);
      return;
    }
    // Several digits at once: an autofilled or dropped code.
    fill(index, digits);
  };

  const handleKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    const { key } = event;
    if (key === 'Backspace' && (cells[index] ?? '') === '' && index > 0) {
      event.preventDefault();
      update(cells.map((cell, position) => (position === index - 1 ? '' : cell)));
      focus(index - 1);
    } else if (key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focus(index - 1);
    } else if (key === 'ArrowRight' && index < LENGTH - 1) {
      event.preventDefault();
      focus(index + 1);
    } else if (key === 'Home') {
      event.preventDefault();
      focus(0);
    } else if (key === 'End') {
      event.preventDefault();
      focus(LENGTH - 1);
    } else if (
      key.length === 1 &&
      !/\d/.test(key) &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey
    ) {
      // Only digits can be typed.
      event.preventDefault();
    }
  };

  const handlePaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const digits = digitsOf(event.clipboardData.getData('text'));
    if (digits) fill(index, digits);
  };

  const message = error ?? helperText;
  return (
    <Box
      component="fieldset"
      data-testid="code-input"
      aria-labelledby={legendId}
      sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}
    >
      <Box
        component="legend"
        id={legendId}
        sx={{ p: 0, mb: 1, typography: 'body1', fontWeight: 500, color: 'text.primary' }}
      >
        {label}
      </Box>
      <Box
        dir="ltr"
        sx={{ display: 'flex', gap: { xs: 0.75, sm: 1.5 }, justifyContent: 'flex-start' }}
      >
        {cells.map((cell, index) => (
          <Box
            key={index}
            component="input"
            ref={(element: HTMLInputElement | null) => {
              inputs.current[index] = element;
              if (index === 0 && inputRef) {
                if (typeof inputRef === 'function') inputRef(element);
                else inputRef.current = element;
              }
            }}
            type="text"
            inputMode="numeric"
            pattern="[0-9]"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            disabled={disabled}
            value={cell}
            aria-label={t('common:codeInput.digit', { index: index + 1, total: LENGTH })}
            aria-invalid={error ? true : undefined}
            aria-describedby={message ? helpId : undefined}
            onChange={(event: ChangeEvent<HTMLInputElement>) => handleChange(index, event)}
            onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => handleKeyDown(index, event)}
            onPaste={(event: ClipboardEvent<HTMLInputElement>) => handlePaste(index, event)}
            onFocus={(event) => event.currentTarget.select()}
            onBlur={onBlur}
            sx={(theme) => ({
              width: { xs: 40, sm: 48 },
              height: { xs: 48, sm: 56 },
              p: 0,
              textAlign: 'center',
              fontSize: '1.5rem',
              fontFamily: theme.typography.fontFamily,
              color: 'text.primary',
              bgcolor: 'background.paper',
              border: '1px solid',
              borderColor: error ? 'error.main' : alpha(theme.palette.text.primary, 0.42),
              borderRadius: 1,
              outline: 'none',
              '&:hover:not(:disabled)': { borderColor: error ? 'error.main' : 'text.primary' },
              '&:focus': {
                borderColor: error ? 'error.main' : 'primary.main',
                boxShadow: `0 0 0 2px ${error ? theme.palette.error.main : theme.palette.primary.main}`,
              },
              '&:disabled': { color: 'text.disabled', bgcolor: 'action.disabledBackground' },
            })}
          />
        ))}
      </Box>
      {message && (
        <FormHelperText id={helpId} error={!!error} sx={{ mx: 0, mt: 1 }}>
          {message}
        </FormHelperText>
      )}
    </Box>
  );
}
