import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { Link as RouterLink, Outlet } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import { LanguageSwitcher } from '../../components/language-switcher';
import { SiteFooter } from '../../components/site-footer';
import { SkipLink } from '../../components/skip-link';

/**
 * The legal pages' layout, open to everyone in every state: the brand (a way back to the portal),
 * the language, the page and the footer.
 */
export default function PublicLayout() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <AppBar
        position="static"
        color="inherit"
        elevation={1}
        sx={{ borderTop: 4, borderColor: 'primary.main' }}
      >
        <Toolbar sx={{ gap: 1, flexWrap: 'wrap', py: 1 }}>
          <Link component={RouterLink} to="/" sx={{ display: 'inline-flex' }}>
            <BrandLogo />
          </Link>
          <Box sx={{ flexGrow: 1 }} />
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
