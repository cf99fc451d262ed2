import { useEffect } from 'react';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';

/** Delay of the success screens before they move on (spec §4: "after a few seconds"). */
export const SUCCESS_REDIRECT_MS = 5000;

export interface RedirectNoticeProps {
  /** Where to go (an in-app path). */
  to: string;
  delayMs?: number;
}

/**
 * "You will be taken to the sign-in page in 5 seconds" with a link to go now; navigates after
 * the delay.
 */
export function RedirectNotice({ to, delayMs = SUCCESS_REDIRECT_MS }: RedirectNoticeProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => {
      void navigate(to, { replace: true });
    }, delayMs);
    return () => clearTimeout(timer);
  }, [navigate, to, delayMs]);
  return (
    <>
      <Typography sx={{ mb: 2 }}>
        {t('common:redirect.toLogin', { count: Math.round(delayMs / 1000) })}
      </Typography>
      <Link component={RouterLink} to={to} replace>
        {t('common:redirect.goNow')}
      </Link>
    </>
  );
}
