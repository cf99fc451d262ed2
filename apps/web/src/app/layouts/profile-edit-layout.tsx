import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import { LanguageSwitcher } from '../../components/language-switcher';
import { SiteFooter } from '../../components/site-footer';
import { SkipLink } from '../../components/skip-link';

/** The profile editor's own layout: a slim bar with a way back to the profile. */
export default function ProfileEditLayout() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <AppBar position="static" color="inherit" elevation={1}>
        <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
          <Button
            component={RouterLink}
            to="/profile"
            startIcon={
              <ArrowBack
                aria-hidden="true"
                sx={(theme) => ({ transform: theme.direction === 'rtl' ? 'scaleX(-1)' : 'none' })}
              />
            }
          >
            {t('common:actions.backToProfile')}
          </Button>
          <Box sx={{ flex: 1, display: 'flex', justifyContent: 'center' }}>
            <BrandLogo height={32} />
          </Box>
          <LanguageSwitcher />
        </Toolbar>
      </AppBar>
      <Container
        component="main"
        id="main-content"
        tabIndex={-1}
        maxWidth="md"
        sx={{ flex: 1, py: 4, outline: 'none' }}
      >
        <Outlet />
      </Container>
      <SiteFooter />
    </Box>
  );
}
