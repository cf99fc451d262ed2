import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Edit from '@mui/icons-material/Edit';
import { formatPhone, type Profile } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/page';
import { errorMessage } from '../../lib/error-message';
import { MyDataSection } from '../my-data/my-data-section';
import { useProfile } from './api/profile';
import type { ContactKind } from './api/change-contact';
import { ContactChange } from './contact-change';
import { PasswordChange } from './password-change';
import { AddressText } from './person-fields';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={id}
      sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}
    >
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Fields({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'minmax(12rem, max-content) 1fr' },
        columnGap: 3,
        rowGap: 1,
        m: 0,
      }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" sx={{ fontWeight: 500 }}>
            {label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, mb: { xs: 1, sm: 0 } }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function ProfileView({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const [changing, setChanging] = useState<ContactKind | null>(null);
  const none = t('account:profile.notProvided');
  const text = (value: string | null) => (value ? <bdi>{value}</bdi> : none);

  const identity: [string, ReactNode][] = [
    [t('security:registration.lastName'), text(profile.lastName)],
    [t('security:registration.firstName'), text(profile.firstName)],
    [t('account:profile.birthName'), text(profile.birthName)],
    [t('security:registration.birthDate'), text(profile.birthDate)],
    [t('security:registration.birthPlace'), text(profile.birthPlaceInsee)],
    [
      t('security:registration.sex'),
      profile.sex ? t(`security:registration.sexes.${profile.sex}`) : none,
    ],
    [
      t('account:profile.gender'),
      profile.gender ? t(`account:profile.genders.${profile.gender}`) : none,
    ],
    [t('account:dashboard.profileType'), t(`account:profileType.${profile.profile ?? 'none'}`)],
    [t('account:dashboard.status'), t(`account:status.${profile.status}`)],
    [t('account:profile.language'), t(`common:language.names.${profile.language}`)],
    [
      t('account:profile.address'),
      profile.address ? <AddressText address={profile.address} /> : none,
    ],
  ];
  const patient: [string, ReactNode][] = [
    [t('account:profile.ins'), text(profile.ins)],
    [t('account:profile.insOid'), text(profile.insOid)],
    [t('account:profile.firstNameUsed'), text(profile.firstNameUsed)],
    [t('account:profile.lastNameUsed'), text(profile.lastNameUsed)],
    [t('account:profile.parentIns'), text(profile.parentIns)],
  ];
  const professional: [string, ReactNode][] = [
    [
      t('security:registration.identifierType'),
      profile.identifierType ? <bdi>{profile.identifierType}</bdi> : none,
    ],
    [t('security:registration.identifier'), text(profile.identifier)],
    [t('security:registration.job'), text(profile.job)],
    [t('account:profile.specialty'), text(profile.specialty)],
    [
      t('account:profile.category'),
      profile.category ? t(`account:profile.categories.${profile.category}`) : none,
    ],
  ];

  const contact = (kind: ContactKind) => {
    const shown = (number: string | null) => (number === null ? null : formatPhone(number));
    const value = kind === 'email' ? profile.email : shown(profile.phone);
    const verified = kind === 'email' ? profile.emailVerified : profile.phoneVerified;
    const pending = kind === 'email' ? profile.pendingEmail : shown(profile.pendingPhone);
    const pendingRows: [string, ReactNode][] = pending
      ? [[t('account:profile.pendingChange'), text(pending)]]
      : [];
    return (
      <Box sx={{ mb: 2 }}>
        <Fields
          rows={[
            [
              t(kind === 'email' ? 'account:dashboard.email' : 'account:profile.phone'),
              <>
                {text(value)}
                {value && (
                  <Typography component="span" variant="body2" color="text.secondary">
                    {' '}
                    ({t(verified ? 'account:profile.verified' : 'account:profile.unverified')})
                  </Typography>
                )}
              </>,
            ],
            ...pendingRows,
          ]}
        />
        {changing === kind ? (
          <Box sx={{ mt: 2 }}>
            <ContactChange kind={kind} onDone={() => setChanging(null)} />
          </Box>
        ) : (
          <Button
            sx={{ mt: 1 }}
            variant="outlined"
            onClick={() => setChanging(kind)}
            data-testid={`profile-${kind}-change`}
          >
            {t(kind === 'email' ? 'account:profile.changeEmail' : 'account:profile.changePhone')}
          </Button>
        )}
      </Box>
    );
  };

  return (
    <>
      <Section id="identity-title" title={t('account:profile.identity')}>
        <Fields rows={identity} />
        <Button
          component={RouterLink}
          to="/profile/update"
          variant="contained"
          startIcon={<Edit aria-hidden="true" />}
          sx={{ mt: 2 }}
          data-testid="profile-edit-link"
        >
          {t('account:profile.modify')}
        </Button>
      </Section>
      {profile.profile === 'patient' && (
        <Section id="patient-title" title={t('account:profile.patientExtras')}>
          <Fields rows={patient} />
        </Section>
      )}
      {profile.profile === 'professional' && (
        <Section id="professional-title" title={t('account:profile.professionalExtras')}>
          <Fields rows={professional} />
        </Section>
      )}
      <Section id="contact-title" title={t('account:profile.contact')}>
        {contact('email')}
        {contact('phone')}
      </Section>
      <Section id="password-title" title={t('account:profile.passwordTitle')}>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('account:profile.passwordIntro')}
        </Typography>
        <PasswordChange />
      </Section>
      <MyDataSection />
    </>
  );
}

export default function ProfilePage() {
  const { t, i18n } = useTranslation();
  const profile = useProfile();
  return (
    <Page title={t('account:profile.title')}>
      {profile.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('common:loading')} />
        </Box>
      )}
      {profile.isError && (
        <Alert severity="error" data-testid="form-error">
          {errorMessage(i18n, profile.error)}
        </Alert>
      )}
      {profile.data && <ProfileView profile={profile.data} />}
    </Page>
  );
}
