import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import DeleteForever from '@mui/icons-material/DeleteForever';
import Download from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import { MY_DATA_EXPORT_URL } from './api';
import { DeleteAccountDialog } from './delete-account-dialog';

/** "My data" on the profile: download everything held about me, or delete my account. */
export function MyDataSection() {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState(false);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="my-data-title"
      sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}
      data-testid="my-data"
    >
      <Typography id="my-data-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('my-data:section.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('my-data:section.intro')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <Button
          variant="outlined"
          href={MY_DATA_EXPORT_URL}
          download
          startIcon={<Download aria-hidden="true" />}
          aria-describedby="my-data-download-hint"
          data-testid="my-data-download"
        >
          {t('my-data:section.download')}
        </Button>
        <Button
          variant="outlined"
          color="error"
          startIcon={<DeleteForever aria-hidden="true" />}
          onClick={() => setDeleting(true)}
          data-testid="delete-account-open"
        >
          {t('my-data:section.delete')}
        </Button>
      </Box>
      <Typography id="my-data-download-hint" variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {t('my-data:section.downloadHint')}
      </Typography>
      {deleting && <DeleteAccountDialog onClose={() => setDeleting(false)} />}
    </Paper>
  );
}
