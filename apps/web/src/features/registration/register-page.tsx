import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/page';

const CHOICES = [
  { type: 'patient', to: '/security/register/patient' },
  { type: 'professional', to: '/security/register/professional' },
] as const;

/** Sign-up, first step: as a patient or as a health professional. */
export default function RegisterPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('security:register.title')}>
      <Typography sx={{ mb: 3 }}>{t('security:register.description')}</Typography>
      <Box sx={{ display: 'grid', gap: 2 }}>
        {CHOICES.map(({ type, to }) => (
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
