import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { safeTargetUri } from '@hygie/domain';
import { Page } from '../../components/page';
import { RecoveryCodesDialog } from '../../components/recovery-codes-dialog';
import { StepUpPassword, useStepUp } from '../../components/step-up';
import { useBiometricAvailability } from '../../lib/biometric-availability';
import { biometricErrorMessage, defaultDeviceName } from '../../lib/biometric-messages';
import {
  nativeBiometricsSupported,
  passkeysSupported,
  rememberDeclined,
} from '../../lib/biometrics';
import { useBrand } from '../../lib/brand';
import { browser } from '../../lib/browser';
import { useSession } from '../../lib/current-user';
import { withFlowParams } from '../../lib/flow-params';
import { useServices } from '../../lib/services';
import { useEnrolBiometrics } from './api/enrol';

const DEVICE_NAME_MAX = 100;

/**
 * The enrolment question (spec §2 "Biometrics"), shown by the guard after a sign-in in the app
 * on a device without a key: the warning, accept or decline, and a link back to normal login.
 * Either way the sign-in then goes on (target_uri, redirect or home).
 */
export default function BiometricsPage() {
  const { t } = useTranslation();
  const { name: brandName } = useBrand();
  const { biometricEnrolment, notifications } = useServices();
  const session = useSession();
  const [params] = useSearchParams();
  const [native] = useState(() => nativeBiometricsSupported());
  const [passkeys] = useState(() => passkeysSupported());
  const availability = useBiometricAvailability(native);
  // The first passkey's recovery codes, shown once before the sign-in goes on.
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const loginLink = withFlowParams('/security/login', `?${params.toString()}`);

  const title = t('biometrics:enrol.title');
  if (!session.user) {
    return (
      <Page title={title}>
        <Typography sx={{ mb: 2 }}>{t('biometrics:enrol.signInFirst')}</Typography>
        <Link component={RouterLink} to={loginLink}>
          {t('biometrics:enrol.backToLogin')}
        </Link>
      </Page>
    );
  }

  /** The question is answered: the sign-in goes on. */
  const finish = () => {
    const target = safeTargetUri(params.get('target_uri'), window.location.origin);
    biometricEnrolment.set(false);
    // Without target_uri the guard now sends the user to `redirect` or home.
    if (target) browser.assign(target);
  };

  const available = native ? availability.data?.available === true : passkeys;
  const checking = native && availability.isPending;

  return (
    <Page title={title}>
      {checking ? null : available ? (
        <EnrolmentQuestion
          native={native}
          prompts={{
            promptTitle: t('biometrics:prompt.enrolTitle'),
            promptSubtitle: t('biometrics:prompt.enrolSubtitle', { brand: brandName }),
          }}
          onEnrolled={(codes) => {
            notifications.notify(t('biometrics:enrol.done'), 'success');
            if (codes) setRecoveryCodes(codes);
            else finish();
          }}
          onDeclined={() => {
            rememberDeclined();
            finish();
          }}
        />
      ) : (
        <>
          <Alert severity="info" role="status" sx={{ mb: 3 }}>
            {t('biometrics:enrol.unavailable')}
          </Alert>
          <Button variant="contained" size="large" onClick={finish} sx={{ mb: 3 }}>
            {t('biometrics:enrol.continue')}
          </Button>
        </>
      )}
      <Typography>
        <Link component={RouterLink} to={loginLink} onClick={() => biometricEnrolment.set(false)}>
          {t('biometrics:enrol.backToLogin')}
        </Link>
      </Typography>
      {recoveryCodes && <RecoveryCodesDialog codes={recoveryCodes} onClose={finish} />}
    </Page>
  );
}

function EnrolmentQuestion({
  native,
  prompts,
  onEnrolled,
  onDeclined,
}: {
  native: boolean;
  prompts: { promptTitle: string; promptSubtitle: string };
  onEnrolled: (recoveryCodes: string[] | undefined) => void;
  onDeclined: () => void;
}) {
  const { t, i18n } = useTranslation();
  const enrol = useEnrolBiometrics();
  const [deviceName, setDeviceName] = useState(() =>
    defaultDeviceName(t, navigator.userAgent, native),
  );
  const stepUp = useStepUp(enrol.error);
  // A refusal for want of a recent proof is not a failure: the password is asked below.
  const failure =
    enrol.isError && !stepUp.required ? biometricErrorMessage(i18n, enrol.error) : null;
  const nameMissing = !deviceName.trim();

  return (
    <Box
      component="form"
      noValidate
      aria-labelledby="page-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (nameMissing) return;
        stepUp.run(() =>
          enrol.mutate(
            { native, deviceName: deviceName.trim(), ...prompts },
            { onSuccess: onEnrolled },
          ),
        );
      }}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, mb: 3 }}
    >
      <Typography>
        {native ? t('biometrics:enrol.questionNative') : t('biometrics:enrol.questionPasskey')}
      </Typography>
      <Alert severity="warning" data-testid="biometrics-warning">
        {t('biometrics:enrol.warning')}
      </Alert>
      {failure && (
        <Alert severity="error" role="alert" data-testid="biometric-error">
          {failure}
        </Alert>
      )}
      <TextField
        id="biometrics-device-name"
        label={t('biometrics:enrol.deviceName')}
        helperText={
          nameMissing ? t('validation:field_required') : t('biometrics:enrol.deviceNameHelp')
        }
        error={nameMissing}
        required
        fullWidth
        value={deviceName}
        onChange={(event) => setDeviceName(event.target.value)}
        slotProps={{ htmlInput: { maxLength: DEVICE_NAME_MAX } }}
      />
      <StepUpPassword stepUp={stepUp} id="biometrics-password" />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <Button
          type="submit"
          variant="contained"
          size="large"
          loading={enrol.isPending || stepUp.pending}
          data-testid="biometrics-accept"
        >
          {t('biometrics:enrol.accept')}
        </Button>
        <Button
          variant="outlined"
          size="large"
          disabled={enrol.isPending || stepUp.pending}
          onClick={onDeclined}
          data-testid="biometrics-decline"
        >
          {t('biometrics:enrol.decline')}
        </Button>
      </Box>
    </Box>
  );
}
