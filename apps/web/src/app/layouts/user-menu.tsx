import { useId, useState, type MouseEvent } from 'react';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import AccountCircle from '@mui/icons-material/AccountCircle';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { CurrentUser } from '@hygie/domain';
import { displayName } from '../../lib/current-user';
import { logout } from '../../lib/logout';

/** The account's security pages the menu leads to (features/self-service). */
const ACCOUNT_SECURITY = [
  { to: '/sessions', labelKey: 'self-service:nav.sessions' },
  { to: '/activity', labelKey: 'self-service:nav.activity' },
  { to: '/platform-access', labelKey: 'self-service:nav.platforms' },
] as const;

/** The account menu of the app bar: profile, the security pages, and sign out. */
export function UserMenu({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();
  const name = displayName(user);

  return (
    <>
      <Button
        id={buttonId}
        color="primary"
        data-testid="user-menu"
        aria-label={t('common:userMenu.label', { name })}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        startIcon={<AccountCircle aria-hidden="true" />}
        sx={{ maxWidth: { xs: 180, sm: 280 } }}
      >
        <bdi style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {name}
        </bdi>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
      >
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void navigate('/profile');
          }}
        >
          {t('common:nav.profile')}
        </MenuItem>
        {ACCOUNT_SECURITY.map((item) => (
          <MenuItem
            key={item.to}
            onClick={() => {
              setAnchor(null);
              void navigate(item.to);
            }}
          >
            {t(item.labelKey)}
          </MenuItem>
        ))}
        <MenuItem data-testid="logout" onClick={() => logout()}>
          {t('common:userMenu.signOut')}
        </MenuItem>
      </Menu>
    </>
  );
}
