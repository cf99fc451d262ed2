import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { PENDING_STATES } from '@hygie/domain';
import { PlainButton } from '../../components/plain/button';
import { SecurityFrame } from '../../components/security-frame';
import { useSession } from '../../lib/current-user';
import { logout } from '../../lib/logout';
import { LOGIN_PATH } from '../guard';

/**
 * The security screens (login, registration, verifications…) in their frame. Plain elements
 * (app/base.css), like the login page: MUI loads with the other screens (routes.tsx).
 */
export default function SecurityLayout() {
  const { t } = useTranslation();
  const { state, user } = useSession();
  const { pathname } = useLocation();
  const pending = PENDING_STATES.includes(state);

  return (
    <SecurityFrame
      footerAction={
        pending || user ? (
          // A half-open session can only finish its step or be abandoned.
          <PlainButton onClick={() => logout()}>
            {t(pending ? 'common:actions.cancelSignIn' : 'common:userMenu.signOut')}
          </PlainButton>
        ) : (
          pathname !== LOGIN_PATH && (
            <RouterLink to={LOGIN_PATH} className="hy-link">
              {t('common:actions.backToLogin')}
            </RouterLink>
          )
        )
      }
    >
      <Outlet />
    </SecurityFrame>
  );
}
