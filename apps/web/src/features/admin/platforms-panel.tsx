import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  REQUIRED_LEVELS,
  type AccessPolicy,
  type AdminPlatform,
  type CreatedPlatform,
  type RequiredLevel,
} from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { dataAttributes } from '../../lib/data-attributes';
import { errorMessage } from '../../lib/error-message';
import { useServices } from '../../lib/services';
import {
  useCreatePlatform,
  useDeletePlatform,
  usePlatforms,
  useUpdatePlatform,
} from './api/platforms';

const POLICIES: AccessPolicy[] = ['open', 'on_request', 'admin'];

/** The minimum levels a platform may require, "none" first (the select's value for null). */
const LEVEL_CHOICES = ['none', ...REQUIRED_LEVELS] as const;
type LevelChoice = (typeof LEVEL_CHOICES)[number];

const LEVEL_LABELS = {
  none: 'admin:platforms.levels.none',
  low: 'admin:platforms.levels.low',
  substantial: 'admin:platforms.levels.substantial',
  high: 'admin:platforms.levels.high',
} as const satisfies Record<LevelChoice, string>;

function levelOfChoice(value: string): RequiredLevel | null {
  return REQUIRED_LEVELS.find((level) => level === value) ?? null;
}

/**
 * A platform's minimum level, changed in its row of the list (saved at once, announced by a
 * notification; a refusal says why).
 */
function MinimumLevelSelect({ platform }: { platform: AdminPlatform }) {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const update = useUpdatePlatform();
  return (
    <TextField
      id={`platform-level-${platform.id}`}
      select
      size="small"
      value={platform.minimumLevel ?? 'none'}
      disabled={update.isPending}
      onChange={(event) =>
        update.mutate(
          { id: platform.id, changes: { minimumLevel: levelOfChoice(event.target.value) } },
          {
            onSuccess: () =>
              notifications.notify(
                t('admin:platforms.minimumLevelSaved', { name: platform.name }),
                'success',
              ),
            onError: (error) => notifications.notify(errorMessage(i18n, error), 'error'),
          },
        )
      }
      slotProps={{
        select: { native: true },
        htmlInput: {
          'aria-label': t('admin:platforms.minimumLevelOf', { name: platform.name }),
          ...dataAttributes({ 'data-testid': 'platform-level' }),
        },
      }}
    >
      {LEVEL_CHOICES.map((choice) => (
        <option key={choice} value={choice}>
          {t(LEVEL_LABELS[choice])}
        </option>
      ))}
    </TextField>
  );
}

/** Platforms (OIDC clients): list, register (the secret is shown once), delete. */
export function PlatformsPanel() {
  const { t, i18n } = useTranslation();
  const list = usePlatforms();
  const create = useCreatePlatform();
  const remove = useDeletePlatform();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [redirectUri, setRedirectUri] = useState('');
  const [postLogoutUri, setPostLogoutUri] = useState('');
  const [backchannelUri, setBackchannelUri] = useState('');
  const [policy, setPolicy] = useState<AccessPolicy>('open');
  const [minimumLevel, setMinimumLevel] = useState<RequiredLevel | null>(null);
  const [isPublic, setPublic] = useState(false);
  const [created, setCreated] = useState<CreatedPlatform | null>(null);
  const [toDelete, setToDelete] = useState<AdminPlatform | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        name,
        url,
        redirectUris: [redirectUri],
        ...(postLogoutUri ? { postLogoutRedirectUris: [postLogoutUri] } : {}),
        ...(backchannelUri ? { backchannelLogoutUri: backchannelUri } : {}),
        accessPolicy: policy,
        public: isPublic,
        ...(minimumLevel && { minimumLevel }),
      },
      {
        onSuccess: (platform) => {
          setCreated(platform);
          setName('');
          setUrl('');
          setRedirectUri('');
          setPostLogoutUri('');
          setBackchannelUri('');
        },
      },
    );
  };

  const platforms = list.data?.platforms ?? [];
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Typography id="platforms-title" variant="h6" component="h2">
        {t('admin:platforms.title')}
      </Typography>
      {list.isError && (
        <Alert severity="error" role="alert" data-testid="form-error">
          {errorMessage(i18n, list.error)}
        </Alert>
      )}
      {list.isSuccess && platforms.length === 0 && (
        <Typography data-testid="no-platform">{t('admin:platforms.empty')}</Typography>
      )}
      {platforms.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-labelledby="platforms-title">
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">
                  {t('admin:platforms.name')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:platforms.clientId')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:platforms.policy')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:platforms.minimumLevel')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:platforms.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {platforms.map((p) => (
                <TableRow key={p.id} data-testid="platform-row" data-platform-name={p.name}>
                  <TableCell component="th" scope="row">
                    {p.name}
                  </TableCell>
                  <TableCell dir="ltr">{p.clientId}</TableCell>
                  <TableCell>{t(`admin:platforms.policies.${p.accessPolicy}`)}</TableCell>
                  <TableCell>
                    <MinimumLevelSelect platform={p} />
                  </TableCell>
                  <TableCell>
                    <Button
                      color="error"
                      onClick={() => setToDelete(p)}
                      data-testid="platform-delete"
                    >
                      {t('admin:platforms.delete')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}

      <Paper
        variant="outlined"
        component="section"
        aria-labelledby="platform-add-title"
        sx={{ p: { xs: 2, sm: 3 } }}
      >
        <Typography id="platform-add-title" variant="h6" component="h3" sx={{ mb: 2 }}>
          {t('admin:platforms.add')}
        </Typography>
        {create.isError && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }} data-testid="form-error">
            {errorMessage(i18n, create.error)}
          </Alert>
        )}
        <Box component="form" onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
          <TextField
            id="platform-name"
            label={t('admin:platforms.name')}
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <TextField
            id="platform-url"
            label={t('admin:platforms.url')}
            required
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <TextField
            id="platform-redirect-uri"
            label={t('admin:platforms.redirectUri')}
            required
            type="url"
            value={redirectUri}
            onChange={(e) => setRedirectUri(e.target.value)}
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <TextField
            id="platform-post-logout-uri"
            label={t('admin:platforms.postLogoutUri')}
            type="url"
            value={postLogoutUri}
            onChange={(e) => setPostLogoutUri(e.target.value)}
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <TextField
            id="platform-backchannel-logout-uri"
            label={t('admin:platforms.backchannelLogoutUri')}
            helperText={t('admin:platforms.backchannelLogoutHelp')}
            type="url"
            value={backchannelUri}
            onChange={(e) => setBackchannelUri(e.target.value)}
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <TextField
            id="platform-policy"
            label={t('admin:platforms.policy')}
            select
            value={policy}
            onChange={(e) => {
              const chosen = POLICIES.find((p) => p === e.target.value);
              if (chosen) setPolicy(chosen);
            }}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            {POLICIES.map((p) => (
              <option key={p} value={p}>
                {t(`admin:platforms.policies.${p}`)}
              </option>
            ))}
          </TextField>
          <TextField
            id="platform-minimum-level"
            label={t('admin:platforms.minimumLevel')}
            helperText={t('admin:platforms.minimumLevelHelp')}
            select
            value={minimumLevel ?? 'none'}
            onChange={(e) => setMinimumLevel(levelOfChoice(e.target.value))}
            slotProps={{
              select: { native: true },
              inputLabel: { shrink: true },
              htmlInput: dataAttributes({ 'data-testid': 'platform-minimum-level' }),
            }}
          >
            {LEVEL_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {t(LEVEL_LABELS[choice])}
              </option>
            ))}
          </TextField>
          <FormControlLabel
            control={
              <Checkbox
                checked={isPublic}
                onChange={(e) => setPublic(e.target.checked)}
                id="platform-public"
              />
            }
            label={t('admin:platforms.public')}
          />
          <Box>
            <Button
              type="submit"
              variant="contained"
              loading={create.isPending}
              data-testid="platform-submit"
            >
              {t('admin:platforms.submit')}
            </Button>
          </Box>
        </Box>
      </Paper>

      {created && (
        <Alert
          severity="success"
          role="status"
          data-testid="platform-created"
          onClose={() => setCreated(null)}
        >
          <Typography>{t('admin:platforms.created', { name: created.name })}</Typography>
          <Typography dir="ltr" sx={{ fontFamily: 'monospace' }}>
            client_id: {created.clientId}
          </Typography>
          {created.clientSecret && (
            <>
              <Typography
                dir="ltr"
                sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                data-testid="platform-secret"
              >
                client_secret: {created.clientSecret}
              </Typography>
              <Typography>{t('admin:platforms.secretOnce')}</Typography>
            </>
          )}
        </Alert>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        title={t('admin:platforms.deleteTitle', { name: toDelete?.name ?? '' })}
        confirmLabel={t('admin:platforms.delete')}
        destructive
        pending={remove.isPending}
        onConfirm={() => {
          if (toDelete) remove.mutate(toDelete.id, { onSettled: () => setToDelete(null) });
        }}
        onClose={() => setToDelete(null)}
      >
        {t('admin:platforms.deleteText')}
      </ConfirmDialog>
    </Box>
  );
}
