import { useState } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Page } from '../../components/page';
import { AccessPanel } from './access-panel';
import { AccountsPanel } from './accounts-panel';
import { AuditPanel } from './audit-panel';
import { MessagesPanel } from './messages-panel';
import { PlatformsPanel } from './platforms-panel';
import { SettingsPanel } from './settings-panel';
import { TermsPanel } from './terms-panel';

const TABS = ['settings', 'access', 'accounts', 'platforms', 'terms', 'messages', 'audit'] as const;
type TabName = (typeof TABS)[number];

/** Application configuration (admin): settings, platform access, accounts, platforms, terms of use, messages, audit trail — one route, 7 tabs. */
export default function AppSettingsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const initial: TabName = TABS.find((name) => name === requested) ?? 'settings';
  const [tab, setTab] = useState<TabName>(initial);

  const select = (next: TabName) => {
    setTab(next);
    setParams(next === 'settings' ? {} : { tab: next }, { replace: true });
  };

  return (
    <Page title={t('account:appSettings.title')}>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs
          value={tab}
          onChange={(_event, value: TabName) => select(value)}
          aria-label={t('admin:tabs.label')}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {TABS.map((name) => (
            <Tab
              key={name}
              value={name}
              label={t(`admin:tabs.${name}`)}
              id={`admin-tab-${name}`}
              aria-controls={name === tab ? `admin-panel-${name}` : undefined}
              data-testid={`${name}-tab`}
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
        {tab === 'settings' && <SettingsPanel />}
        {tab === 'access' && <AccessPanel />}
        {tab === 'accounts' && <AccountsPanel />}
        {tab === 'platforms' && <PlatformsPanel />}
        {tab === 'terms' && <TermsPanel />}
        {tab === 'messages' && <MessagesPanel />}
        {tab === 'audit' && <AuditPanel />}
      </Box>
    </Page>
  );
}
