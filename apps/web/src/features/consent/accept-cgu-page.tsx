import { useState } from 'react';
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
import { fieldProblems } from '../../lib/form-errors';
import { formatLongDate } from '../../lib/format-date';
import { voidHandler } from '../../lib/handlers';
import { isPendingStage } from '../../lib/sign-in';
import { validationMessage } from '../../lib/validation-message';
import { CGU_SECTIONS } from './cgu-sections';
import { CGU_QUERY_KEY, useCguStatus, type CguStatus } from './api/get-cgu';
import { useAcceptCgu } from './api/accept-cgu';

const acceptSchema = z.object({
  accepted: z.boolean().refine((value) => value, { error: 'cgu_must_be_accepted' }),
});

function Terms({ status }: { status: CguStatus }) {
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
      {CGU_SECTIONS.map((id, index) => (
        <Box key={id} component="section" sx={{ mb: 2 }}>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 500 }}>
            {`${index + 1}. ${t(`security:cgu.terms.${id}.title`)}`}
          </Typography>
          <Typography variant="body2">{t(`security:cgu.terms.${id}.body`)}</Typography>
        </Box>
      ))}
    </Box>
  );
}

function AcceptForm({ status }: { status: CguStatus }) {
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
    accept.mutate(status.version, {
      onError: (error) => {
        if (isPendingStage(error)) return;
        if (fieldProblems(error).some((problem) => problem.path === 'version')) {
          // A newer version was published meanwhile: show it, to be read and accepted.
          setNewVersion(true);
          reset({ accepted: false });
          void queryClient.invalidateQueries({ queryKey: CGU_QUERY_KEY });
          return;
        }
        setFailure(error);
      },
    });
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

/**
 * Terms of use: at the sign-in stage (CGU_CONSENT_REQUIRED) they are read and accepted; anyone
 * else (e.g. from the sign-up form's link) can read them.
 */
export default function AcceptCguPage() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const status = useCguStatus();
  const pending = session.state === AccountState.CGU_CONSENT_REQUIRED;

  return (
    <Page title={t('security:acceptCgu.title')}>
      <Typography sx={{ mb: 3 }}>
        {t(pending ? 'security:cgu.introPending' : 'security:cgu.introRead')}
      </Typography>
      {status.data ? (
        <>
          <Terms status={status.data} />
          {pending && <AcceptForm status={status.data} />}
        </>
      ) : status.isError ? (
        <FormError>{errorMessage(i18n, status.error)}</FormError>
      ) : (
        <Typography role="status">{t('common:loading')}</Typography>
      )}
    </Page>
  );
}
