import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { waitInWords } from '../lib/wait';

export interface ResendButtonProps {
  onClick: () => void;
  /** Seconds before a code may be asked for again (useCountdown); 0 when it may. */
  seconds: number;
  loading?: boolean;
  disabled?: boolean;
  /** Translated label when it may be pressed; "Send the code again" by default. */
  label?: string;
  'data-testid'?: string;
}

/** "Send the code again", disabled with "in 45 seconds" / "in 50 minutes" while the server would refuse it. */
export function ResendButton({
  onClick,
  seconds,
  loading = false,
  disabled = false,
  label,
  'data-testid': testId,
}: ResendButtonProps) {
  const { t, i18n } = useTranslation();
  return (
    <Button
      variant="outlined"
      onClick={onClick}
      loading={loading}
      disabled={disabled || seconds > 0}
      data-testid={testId}
    >
      {seconds > 0
        ? t('common:code.resendIn', { wait: waitInWords(i18n, seconds) })
        : (label ?? t('common:code.resend'))}
    </Button>
  );
}
