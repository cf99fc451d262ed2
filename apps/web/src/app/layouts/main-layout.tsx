import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { useTranslation } from 'react-i18next';
import { NavLink, Link as RouterLink, Outlet } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import { LanguageSwitcher } from '../../components/language-switcher';
import { SkipLink } from '../../components/skip-link';
import { SiteFooter } from '../../features/legal/site-footer';
import { useSession } from '../../lib/current-user';
import { UserMenu } from './user-menu';

interface NavItem {
  to: string;
  labelKey: string;
  end?: boolean;
  admin?: boolean;
}

export const MAIN_NAV: readonly NavItem[] = [
  { to: '/', labelKey: 'common:nav.home', end: true },
  { to: '/services', labelKey: 'common:nav.services' },
  { to: '/profile', labelKey: 'common:nav.profile', end: true },
  { to: '/devices', labelKey: 'common:nav.devices' },
  { to: '/app-settings', labelKey: 'common:nav.appSettings', admin: true },
];

/** The signed-in area: app bar, main navigation (primary colour) and the page. */
export default function MainLayout() {
  const { t } = useTranslation();
  const { user, admin } = useSession();

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <AppBar
        position="static"
        color="inherit"
        elevation={1}
        sx={{ borderTop: 4, borderColor: 'secondary.main' }}
      >
        <Toolbar sx={{ gap: 1, flexWrap: 'wrap', py: 1 }}>
          <Link component={RouterLink} to="/" sx={{ display: 'inline-flex' }}>
            <BrandLogo />
          </Link>
          <Box sx={{ flexGrow: 1 }} />
          <LanguageSwitcher />
          {user && <UserMenu user={user} />}
        </Toolbar>
        <Box
          component="nav"
          aria-label={t('common:nav.label')}
          data-testid="primary-nav"
          sx={{ bgcolor: 'primary.main', color: 'primary.contrastText' }}
        >
          <Container
            maxWidth="lg"
            component="ul"
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, listStyle: 'none', m: 0, py: 0.5 }}
          >
            {MAIN_NAV.filter((item) => !item.admin || admin).map((item) => (
              <li key={item.to}>
                <Button
                  component={NavLink}
                  to={item.to}
                  end={item.end}
                  color="inherit"
                  sx={{
                    borderBottom: 3,
                    borderColor: 'transparent',
                    borderRadius: 0,
                    '&[aria-current="page"]': {
                      borderColor: 'primary.contrastText',
                      fontWeight: 700,
                    },
                  }}
                >
                  {t(item.labelKey)}
                </Button>
              </li>
            ))}
          </Container>
        </Box>
      </AppBar>
      <Container
        component="main"
        id="main-content"
        tabIndex={-1}
        maxWidth="lg"
        sx={{ flex: 1, py: 4, outline: 'none' }}
      >
        <Outlet />
      </Container>
      <SiteFooter />
    </Box>
  );
}
