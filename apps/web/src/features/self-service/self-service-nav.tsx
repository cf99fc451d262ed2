import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

/** The account-security pages, one link each (the current one marked). */
export const SELF_SERVICE_NAV = [
  { to: '/devices', labelKey: 'self-service:nav.devices' },
  { to: '/sessions', labelKey: 'self-service:nav.sessions' },
  { to: '/activity', labelKey: 'self-service:nav.activity' },
  { to: '/platform-access', labelKey: 'self-service:nav.platforms' },
] as const;

/** Links between the account-security pages: devices, sessions, activity, platforms' access. */
export function SelfServiceNav() {
  const { t } = useTranslation();
  return (
    <Box component="nav" aria-label={t('self-service:nav.label')} sx={{ mb: 3 }}>
      <Box
        component="ul"
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, listStyle: 'none', m: 0, p: 0 }}
      >
        {SELF_SERVICE_NAV.map((item) => (
          <li key={item.to}>
            <Link
              component={NavLink}
              to={item.to}
              underline="hover"
              sx={{ '&[aria-current="page"]': { fontWeight: 700, textDecoration: 'underline' } }}
            >
              {t(item.labelKey)}
            </Link>
          </li>
        ))}
      </Box>
    </Box>
  );
}
