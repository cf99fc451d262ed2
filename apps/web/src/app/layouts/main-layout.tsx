import { useId, useRef, useState, type KeyboardEvent } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import CloseIcon from '@mui/icons-material/Close';
import MenuIcon from '@mui/icons-material/Menu';
import { useTranslation } from 'react-i18next';
import { NavLink, Link as RouterLink, Outlet, useLocation } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import { LanguageSwitcher } from '../../components/language-switcher';
import { SiteFooter } from '../../components/site-footer';
import { SkipLink } from '../../components/skip-link';
import { useSession } from '../../lib/current-user';
import { UserMenu } from './user-menu';

interface NavItem {
  to: string;
  labelKey: string;
  end?: boolean;
  admin?: boolean;
  /** Other pages of the same area: the item is marked current on them too. */
  section?: readonly string[];
}

export const MAIN_NAV: readonly NavItem[] = [
  { to: '/', labelKey: 'common:nav.home', end: true },
  { to: '/services', labelKey: 'common:nav.services' },
  { to: '/profile', labelKey: 'common:nav.profile', end: true },
  { to: '/devices', labelKey: 'common:nav.devices' },
  {
    to: '/sessions',
    labelKey: 'self-service:nav.main',
    section: ['/activity', '/platform-access'],
  },
  { to: '/app-settings', labelKey: 'common:nav.appSettings', admin: true },
];

/** Below this width the navigation folds into a disclosure menu (reflow at 320 px, WCAG 1.4.10). */
const narrowQuery = (theme: Theme) => theme.breakpoints.down('sm');

/**
 * The main areas, as a row of tabs or (narrow) a column; `onFollow` runs when one is chosen. The
 * current page's item, or the item of the area the page belongs to, is marked.
 */
function NavLinks({ vertical, onFollow }: { vertical: boolean; onFollow?: () => void }) {
  const { t } = useTranslation();
  const { admin } = useSession();
  const { pathname } = useLocation();
  const sx = {
    justifyContent: vertical ? 'flex-start' : 'center',
    borderBottom: vertical ? 0 : 3,
    // Narrow, the current area is marked on the start side (mirrored in Arabic).
    borderLeft: vertical ? 4 : 0,
    borderColor: 'transparent',
    borderRadius: 0,
    '&[aria-current="page"], &[aria-current="true"]': {
      borderColor: 'primary.contrastText',
      fontWeight: 700,
    },
  } as const;
  return (
    <Container
      maxWidth="lg"
      component="ul"
      sx={{
        display: 'flex',
        flexDirection: vertical ? 'column' : 'row',
        flexWrap: 'wrap',
        gap: 0.5,
        listStyle: 'none',
        m: 0,
        py: 0.5,
      }}
    >
      {MAIN_NAV.filter((item) => !item.admin || admin).map((item) => (
        <li key={item.to}>
          {item.section?.includes(pathname) ? (
            // Another page of the item's area: the item is the current section.
            <Button
              component={RouterLink}
              to={item.to}
              aria-current="true"
              color="inherit"
              onClick={onFollow}
              fullWidth={vertical}
              sx={sx}
            >
              {t(item.labelKey)}
            </Button>
          ) : (
            <Button
              component={NavLink}
              to={item.to}
              end={item.end}
              color="inherit"
              onClick={onFollow}
              fullWidth={vertical}
              sx={sx}
            >
              {t(item.labelKey)}
            </Button>
          )}
        </li>
      ))}
    </Container>
  );
}

/** The signed-in area: app bar, main navigation (primary colour) and the page. */
export default function MainLayout() {
  const { t } = useTranslation();
  const { user } = useSession();
  // Read at the first render (no server rendering here): a phone never flashes the wide bar.
  const narrow = useMediaQuery(narrowQuery, { noSsr: true });
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);

  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    menuButton.current?.focus();
  };

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
          {narrow ? (
            <Button
              ref={menuButton}
              variant="outlined"
              data-testid="main-menu-button"
              aria-expanded={open}
              aria-controls={panelId}
              onClick={() => setOpen((was) => !was)}
              startIcon={open ? <CloseIcon aria-hidden="true" /> : <MenuIcon aria-hidden="true" />}
            >
              {t('common:nav.menu')}
            </Button>
          ) : (
            <>
              <LanguageSwitcher />
              {user && <UserMenu user={user} />}
            </>
          )}
        </Toolbar>
        {narrow ? (
          <Box id={panelId} hidden={!open} data-testid="main-menu-panel" onKeyDown={closeOnEscape}>
            <Box
              component="nav"
              aria-label={t('common:nav.label')}
              data-testid="primary-nav"
              sx={{ bgcolor: 'primary.main', color: 'primary.contrastText' }}
            >
              <NavLinks vertical onFollow={() => setOpen(false)} />
            </Box>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, px: 2, py: 1 }}>
              <LanguageSwitcher menuAlign="start" />
              {user && <UserMenu user={user} />}
            </Box>
          </Box>
        ) : (
          <Box
            component="nav"
            aria-label={t('common:nav.label')}
            data-testid="primary-nav"
            sx={{ bgcolor: 'primary.main', color: 'primary.contrastText' }}
          >
            <NavLinks vertical={false} />
          </Box>
        )}
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
