import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Link from '@mui/material/Link';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { AccountState } from '@hygie/domain';
import { FormError } from '../../components/form-error';
import { Page } from '../../components/page';
import { useSession } from '../../lib/current-user';
import { errorMessage, isolate } from '../../lib/error-message';
import { ApiError } from '../../lib/api-client';
import { formatLongDate } from '../../lib/format-date';
import { voidHandler } from '../../lib/handlers';
import { isPendingStage } from '../../lib/sign-in';
import { validationMessage } from '../../lib/validation-message';
import { CGU_QUERY_KEY, useCguStatus, useCguVersion, type CguText } from './api/get-cgu';
import { useAcceptCgu } from './api/accept-cgu';

const acceptSchema = z.object({
  accepted: z.boolean().refine((value) => value, { error: 'cgu_must_be_accepted' }),
});

function Terms({ status }: { status: CguText }) {
  const { t, i18n } = useTranslation();
  return (
    <Box
      component="article"
      tabIndex={0}
      aria-labelledby="cgu-title"
      sx={{
        maxHeight: { xs: 360, sm: 420 },
        overflowY: 'auto',
        p: 2,
        mb: 3,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
      }}
    >
      <Typography id="cgu-title" component="h2" variant="h6" sx={{ mb: 2 }}>
        {t('security:cgu.versionTitle', {
          version: isolate(status.version),
          date: formatLongDate(status.publishedAt, i18n.language),
        })}
      </Typography>
      {status.sections.map((section, index) => (
        <Box key={index} component="section" sx={{ mb: 2 }}>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 500 }}>
            {`${index + 1}. ${section.title}`}
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }}>
            {section.body}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function AcceptForm({ status }: { status: CguText }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const accept = useAcceptCgu();
  const [failure, setFailure] = useState<unknown>(null);
  const [newVersion, setNewVersion] = useState(false);
  const { control, handleSubmit, reset } = useForm<z.input<typeof acceptSchema>>({
    resolver: zodResolver(acceptSchema),
    defaultValues: { accepted: false },
  });

  const onSubmit = handleSubmit(() => {
    setFailure(null);
    setNewVersion(false);
    accept.mutate(
      { version: status.version, hash: status.hash },
      {
        onError: (error) => {
          if (isPendingStage(error)) return;
          if (error instanceof ApiError && error.code === 'terms_changed') {
            // A newer version was published meanwhile: show it, to be read and accepted.
            setNewVersion(true);
            reset({ accepted: false });
            void queryClient.invalidateQueries({ queryKey: CGU_QUERY_KEY });
            return;
          }
          setFailure(error);
        },
      },
    );
  });

  return (
    <>
      <FormError>
        {newVersion ? t('security:cgu.newVersion') : failure ? errorMessage(i18n, failure) : null}
      </FormError>
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onSubmit)}
        aria-labelledby="page-title"
        sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        <Controller
          name="accepted"
          control={control}
          render={({ field, fieldState }) => (
            <Box>
              <FormControlLabel
                control={
                  <Checkbox
                    id="cgu-accept"
                    checked={field.value}
                    onChange={(_event, checked) => field.onChange(checked)}
                    onBlur={field.onBlur}
                    required
                    slotProps={{
                      input: {
                        ref: field.ref,
                        'aria-invalid': fieldState.error ? true : undefined,
                        'aria-describedby': fieldState.error ? 'cgu-accept-error' : undefined,
                      },
                    }}
                  />
                }
                label={t('security:cgu.accept')}
              />
              {fieldState.error && (
                <FormHelperText id="cgu-accept-error" error sx={{ mx: 0 }}>
                  {validationMessage(i18n, fieldState.error.message)}
                </FormHelperText>
              )}
            </Box>
          )}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={accept.isPending}
          data-testid="cgu-submit"
        >
          {t('security:cgu.submit')}
        </Button>
      </Box>
    </>
  );
}

/** A published version the user asks for (`?version=`): the one they accepted, say. */
function PublishedVersion({ version }: { version: string }) {
  const { t, i18n } = useTranslation();
  const text = useCguVersion(version);
  if (text.data) return <Terms status={text.data} />;
  if (text.isError) return <FormError>{errorMessage(i18n, text.error)}</FormError>;
  return <Typography role="status">{t('common:loading')}</Typography>;
}

/**
 * Terms of use: at the sign-in stage (CGU_CONSENT_REQUIRED) they are read and accepted; anyone
 * else (e.g. from the sign-up form's link) can read them, and a signed-in user can read the
 * version they accepted (`?version=`) when a newer one is in force.
 */
export default function AcceptCguPage() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const status = useCguStatus();
  const [search] = useSearchParams();
  const asked = search.get('version');
  const pending = session.state === AccountState.CGU_CONSENT_REQUIRED;
  const accepted = status.data?.acceptedVersion ?? null;
  const older = accepted !== null && status.data !== undefined && accepted !== status.data.version;

  return (
    <Page title={t('security:acceptCgu.title')}>
      <Typography sx={{ mb: 3 }}>
        {t(pending ? 'security:cgu.introPending' : 'security:cgu.introRead')}
      </Typography>
      {asked && !pending ? (
        <>
          <PublishedVersion version={asked} />
          {/* Named by its version: a signed-in reader stays on the page (see the route's marks). */}
          <Link
            component={RouterLink}
            to={status.data ? `?version=${encodeURIComponent(status.data.version)}` : '?'}
          >
            {t('security:cgu.readInForce')}
          </Link>
        </>
      ) : status.data ? (
        <>
          <Terms status={status.data} />
          {pending && <AcceptForm status={status.data} />}
          {older && !pending && (
            <Link
              component={RouterLink}
              to={`?version=${encodeURIComponent(accepted)}`}
              data-testid="cgu-accepted-version"
            >
              {t('security:cgu.readAccepted', { version: isolate(accepted) })}
            </Link>
          )}
        </>
      ) : status.isError ? (
        <FormError>{errorMessage(i18n, status.error)}</FormError>
      ) : (
        <Typography role="status">{t('common:loading')}</Typography>
      )}
    </Page>
  );
}
