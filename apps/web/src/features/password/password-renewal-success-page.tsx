import { useCallback, useEffect } from 'react';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { AccountState, currentUserSchema, safeInternalPath, type CurrentUser } from '@hygie/domain';
import { z } from 'zod';
import { FormStatus } from '../../components/form-error';
import { Page } from '../../components/page';
import { RedirectNotice, SUCCESS_REDIRECT_MS } from '../../components/redirect-notice';
import { useSession } from '../../lib/current-user';
import { useCompleteSignIn } from '../../lib/sign-in';

/**
 * After a few seconds, or at once on "Continue now", on like any completed sign-in: back to a
 * platform (`target_uri`), to the biometric enrolment question, or to the requested page.
 */
function ContinueNotice({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const complete = useCompleteSignIn();
  const requested = safeInternalPath(params.get('redirect')) ?? '/';
  const go = useCallback(() => {
    complete(user);
    void navigate(requested, { replace: true });
  }, [complete, navigate, requested, user]);
  useEffect(() => {
    const timer = setTimeout(go, SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [go]);
  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('security:passwordRenewalSuccess.continueSoon')}</Typography>
      <Link component="button" type="button" onClick={go} data-testid="renewal-continue">
        {t('security:passwordRenewalSuccess.continueNow')}
      </Link>
    </>
  );
}

/** What the renewal hands over in the navigation state: the user it signed in. */
const handedOver = z.object({ renewed: currentUserSchema });

/**
 * The password was renewed at sign-in: the page says so, then completes the sign-in and moves on
 * by itself. Opened without a session (e.g. reloaded after signing out), it sends to the login;
 * opened while the renewal is still to do, back to the renewal.
 */
export default function PasswordRenewalSuccessPage() {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const handed: unknown = location.state;
  const user = handedOver.safeParse(handed).data?.renewed ?? session.user;
  const pending =
    session.state === AccountState.PASSWORD_EXPIRED ||
    session.state === AccountState.PASSWORD_CREATION_REQUIRED;
  if (!user && pending)
    return <Navigate to={`/security/password-renewal${location.search}`} replace />;
  return (
    <Page title={t('security:passwordRenewalSuccess.title')}>
      <FormStatus severity="success" data-testid="renewal-success">
        {t(
          user
            ? 'security:passwordRenewalSuccess.signedIn'
            : 'security:passwordRenewalSuccess.description',
        )}
      </FormStatus>
      {user ? <ContinueNotice user={user} /> : <RedirectNotice to="/security/login" />}
    </Page>
  );
}
