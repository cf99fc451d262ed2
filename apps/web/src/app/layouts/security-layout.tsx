import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { PENDING_STATES } from '@hygie/domain';
import { BrandLogo } from '../../components/brand-logo';
import { LanguageSwitcher } from '../../components/language-switcher';
import { SiteFooter } from '../../components/site-footer';
import { SkipLink } from '../../components/skip-link';
import { useSession } from '../../lib/current-user';
import { logout } from '../../lib/logout';
import { LOGIN_PATH } from '../guard';

/** The security screens (login, registration, verifications…): a centred card. */
export default function SecurityLayout() {
  const { t } = useTranslation();
  const { state, user } = useSession();
  const { pathname } = useLocation();
  const pending = PENDING_STATES.includes(state);

  return (
    <Box
      sx={{
        minHeight: '100vh',
        bgcolor: 'background.default',
        borderTop: 4,
        borderColor: 'primary.main',
      }}
    >
      <SkipLink />
      <Container maxWidth="sm" sx={{ py: { xs: 2, sm: 6 } }}>
        <Box
          component="header"
          sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 3 }}
        >
          <BrandLogo />
          <LanguageSwitcher />
        </Box>
        <Paper
          component="main"
          id="main-content"
          tabIndex={-1}
          elevation={2}
          sx={{ p: { xs: 3, sm: 5 }, outline: 'none', borderTop: 4, borderColor: 'secondary.main' }}
        >
          <Outlet />
        </Paper>
        <SiteFooter>
          <Box sx={{ mb: 2 }}>
            {pending || user ? (
              // A half-open session can only finish its step or be abandoned.
              <Button onClick={() => logout()}>
                {t(pending ? 'common:actions.cancelSignIn' : 'common:userMenu.signOut')}
              </Button>
            ) : (
              pathname !== LOGIN_PATH && (
                <Link component={RouterLink} to={LOGIN_PATH}>
                  {t('common:actions.backToLogin')}
                </Link>
              )
            )}
          </Box>
        </SiteFooter>
      </Container>
    </Box>
  );
}
