import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { identityLinksSchema, isOneOf, okSchema } from '@hygie/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { StepUpPassword, useStepUp } from '../../components/step-up';
import { errorMessage } from '../../lib/error-message';
import { formatLongDate } from '../../lib/format-date';
import { usePublicConfig } from '../../lib/config';
import { useServices } from '../../lib/services';

const LINKS_KEY = ['identity-links'] as const;
const KNOWN = ['psc', 'franceconnect'] as const;

/** A provider's name: the known ones by their own name, another by its id. */
function useProviderName(): (provider: string) => string {
  const { t } = useTranslation();
  return (provider) =>
    isOneOf(KNOWN, provider) ? t(`common:identityProviders.${provider}`) : provider;
}

/**
 * "My devices": the account's links with upstream identity providers (GET/DELETE
 * /api/me/identity-links), with a confirmed removal, and — back from a sign-in that proved the
 * account for a provider's identity (`?idp_link=`) — whether that identity was linked.
 */
export function IdentityLinks() {
  const { t, i18n } = useTranslation();
  const { api } = useServices();
  const [params] = useSearchParams();
  const providerName = useProviderName();
  const enabled = usePublicConfig()?.identityProviders ?? [];
  const [removing, setRemoving] = useState<string | null>(null);
  const links = useQuery({
    queryKey: LINKS_KEY,
    queryFn: ({ signal }) => api.get('/me/identity-links', identityLinksSchema, signal),
  });
  const linking = params.get('idp_link');
  const list = links.data?.links ?? [];
  if (enabled.length === 0 && list.length === 0 && !linking) return null;
  const date = (at: number) => formatLongDate(new Date(at).toISOString(), i18n.language);

  return (
    <Box component="section" aria-labelledby="identity-links-title" sx={{ mt: 4 }}>
      <Typography id="identity-links-title" component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('account:identityLinks.title')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('account:identityLinks.intro')}</Typography>
      {linking && links.data && (
        <Alert
          severity={list.some((link) => link.provider === linking) ? 'success' : 'warning'}
          role="status"
          sx={{ mb: 2 }}
          data-testid="identity-link-outcome"
        >
          {t(
            list.some((link) => link.provider === linking)
              ? 'account:identityLinks.linked'
              : 'account:identityLinks.notLinked',
            { name: providerName(linking) },
          )}
        </Alert>
      )}
      {links.isError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} data-testid="identity-links-error">
          {t('account:identityLinks.loadFailed')}
        </Alert>
      )}
      {links.data && list.length === 0 && (
        <Typography sx={{ mb: 2 }} data-testid="identity-links-empty">
          {t('account:identityLinks.empty')}
        </Typography>
      )}
      {list.length > 0 && (
        <List sx={{ mb: 2 }}>
          {list.map((link) => (
            <ListItem
              key={link.provider}
              divider
              data-testid="identity-link-row"
              secondaryAction={
                <Button
                  color="error"
                  onClick={() => setRemoving(link.provider)}
                  aria-label={t('account:identityLinks.removeLabel', {
                    name: providerName(link.provider),
                  })}
                  data-testid="identity-link-remove"
                >
                  {t('account:identityLinks.remove')}
                </Button>
              }
              sx={{ pe: 14 }}
            >
              <ListItemText
                primary={providerName(link.provider)}
                secondary={[
                  t('account:identityLinks.linkedAt', { date: date(link.linkedAt) }),
                  link.lastUsedAt === null
                    ? t('account:identityLinks.neverUsed')
                    : t('account:identityLinks.lastUsed', { date: date(link.lastUsedAt) }),
                ].join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      )}
      {removing && (
        <RemoveDialog
          provider={removing}
          name={providerName(removing)}
          onClose={() => setRemoving(null)}
        />
      )}
    </Box>
  );
}

/** The confirmation, asking the password again when the session's last proof is too old. */
function RemoveDialog({
  provider,
  name,
  onClose,
}: {
  provider: string;
  name: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { api, notifications } = useServices();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      api.request('DELETE', `/me/identity-links/${encodeURIComponent(provider)}`, {
        schema: okSchema,
      }),
    onSuccess: async () => {
      notifications.notify(t('account:identityLinks.removed'), 'success');
      onClose();
      await queryClient.invalidateQueries({ queryKey: LINKS_KEY });
    },
  });
  const stepUp = useStepUp(remove.error);
  // A refusal for want of a recent proof is not a failure: the password is asked below.
  const failure = remove.isError && !stepUp.required ? errorMessage(i18n, remove.error) : null;
  return (
    <ConfirmDialog
      open
      title={t('account:identityLinks.confirmTitle')}
      confirmLabel={t('account:identityLinks.remove')}
      cancelLabel={t('account:identityLinks.cancel')}
      destructive
      pending={remove.isPending || stepUp.pending}
      onConfirm={() => stepUp.run(() => remove.mutate())}
      onClose={onClose}
    >
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} data-testid="identity-link-error">
          {failure}
        </Alert>
      )}
      <Box sx={{ mb: 2 }}>{t('account:identityLinks.confirmText', { name })}</Box>
      <StepUpPassword stepUp={stepUp} id="identity-link-password" />
    </ConfirmDialog>
  );
}
