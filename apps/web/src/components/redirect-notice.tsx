import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';

/** Delay of the success screens before they move on (spec §4: "after a few seconds"). */
export const SUCCESS_REDIRECT_MS = 5000;

const TICK_MS = 1000;

/** Read by screen readers only (the announcements of the countdown). */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export interface RedirectNoticeProps {
  /** Where to go (an in-app path). */
  to: string;
  delayMs?: number;
}

type Countdown = 'running' | 'paused' | 'stopped';

/**
 * "You will be taken to the sign-in page in 5 seconds", then navigates. The person can pause and
 * resume the countdown, stay on the page, or go now (RGAA 13.1, WCAG 2.2.1). The seconds shown
 * change every second but are not announced: screen readers hear the notice once when it starts,
 * and again only when the person pauses, resumes or stops it.
 */
export function RedirectNotice({ to, delayMs = SUCCESS_REDIRECT_MS }: RedirectNoticeProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [remainingMs, setRemainingMs] = useState(delayMs);
  const [countdown, setCountdown] = useState<Countdown>('running');
  const [announcement, setAnnouncement] = useState('');
  const goNow = useRef<HTMLAnchorElement>(null);
  const seconds = Math.ceil(remainingMs / 1000);

  // One tick a second while running; paused, the seconds left wait (to the second).
  useEffect(() => {
    if (countdown !== 'running') return;
    const timer = setInterval(() => setRemainingMs((left) => left - TICK_MS), TICK_MS);
    return () => clearInterval(timer);
  }, [countdown]);

  useEffect(() => {
    if (countdown === 'running' && remainingMs <= 0) void navigate(to, { replace: true });
  }, [countdown, remainingMs, navigate, to]);

  // Filled after the first render: a live region announces changes, not what it starts with.
  useEffect(() => {
    const timer = setTimeout(() =>
      setAnnouncement(
        (current) => current || t('common:redirect.toLogin', { count: Math.ceil(delayMs / 1000) }),
      ),
    );
    return () => clearTimeout(timer);
  }, [t, delayMs]);

  const pause = () => {
    setCountdown('paused');
    setAnnouncement(t('common:redirect.paused'));
  };
  const resume = () => {
    setCountdown('running');
    setAnnouncement(t('common:redirect.toLogin', { count: seconds }));
  };
  const stay = () => {
    setCountdown('stopped');
    setAnnouncement(t('common:redirect.stopped'));
    // The buttons go away: focus moves to what is left, the link to go on.
    goNow.current?.focus();
  };

  return (
    <Box data-testid="redirect-notice" data-countdown={countdown}>
      <Box
        role="status"
        aria-live="polite"
        data-testid="redirect-announcement"
        sx={VISUALLY_HIDDEN}
      >
        {announcement}
      </Box>
      <Typography sx={{ mb: 2 }} data-testid="redirect-countdown">
        {countdown === 'running'
          ? t('common:redirect.toLogin', { count: seconds })
          : countdown === 'paused'
            ? t('common:redirect.paused')
            : t('common:redirect.stopped')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
        <Link component={RouterLink} to={to} replace ref={goNow}>
          {t('common:redirect.goNow')}
        </Link>
        {countdown !== 'stopped' && (
          // One button that changes its name: focus stays on it when it is pressed.
          <Button
            variant="outlined"
            size="small"
            data-testid="redirect-pause"
            onClick={countdown === 'running' ? pause : resume}
          >
            {t(countdown === 'running' ? 'common:redirect.pause' : 'common:redirect.resume')}
          </Button>
        )}
        {countdown !== 'stopped' && (
          <Button size="small" onClick={stay}>
            {t('common:redirect.stay')}
          </Button>
        )}
      </Box>
    </Box>
  );
}
