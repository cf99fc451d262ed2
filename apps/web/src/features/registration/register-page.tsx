import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { IdentityProviderButton } from '../../components/identity-provider-button';
import { IdentityProviderError } from '../../components/identity-provider-error';
import { Page } from '../../components/page';
import { usePublicConfig } from '../../lib/config';

/**
 * Each kind of account, and the provider whose identity pre-fills it when enabled: FranceConnect
 * for a patient, Pro Santé Connect for a professional (docs/identity-providers.md).
 */
const CHOICES = [
  { type: 'patient', to: '/security/register/patient', provider: 'franceconnect' },
  { type: 'professional', to: '/security/register/professional', provider: 'psc' },
] as const;

/** Sign-up, first step: as a patient or as a health professional. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const enabled = usePublicConfig()?.identityProviders ?? [];
  return (
    <Page title={t('security:register.title')}>
      <IdentityProviderError />
      <Typography sx={{ mb: 3 }}>{t('security:register.description')}</Typography>
      <Box sx={{ display: 'grid', gap: 2 }}>
        {CHOICES.map(({ type, to, provider }) => (
          <Card
            key={type}
            variant="outlined"
            component="section"
            aria-labelledby={`choice-${type}`}
          >
            <CardContent>
              <Typography id={`choice-${type}`} component="h2" variant="h6" sx={{ mb: 1 }}>
                {t(`security:register.choice.${type}.title`)}
              </Typography>
              <Typography variant="body2" sx={{ mb: 2 }}>
                {t(`security:register.choice.${type}.description`)}
              </Typography>
              {enabled.includes(provider) && (
                // The provider first, as its charter asks, then the form as the alternative.
                <Box data-testid={`register-idp-${type}`}>
                  <Typography variant="body2" sx={{ mb: 2 }}>
                    {t(`security:register.choice.${type}.fromProvider`)}
                  </Typography>
                  <IdentityProviderButton provider={provider} intent="register" />
                  <Divider sx={{ my: 2 }}>{t('login:idp.or')}</Divider>
                </Box>
              )}
              <Button
                component={RouterLink}
                to={to}
                variant={type === 'patient' ? 'contained' : 'outlined'}
                data-testid={`register-${type}`}
              >
                {t(`security:register.choice.${type}.action`)}
              </Button>
            </CardContent>
          </Card>
        ))}
      </Box>
    </Page>
  );
}
