import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The screen for unhandled render errors (spec §2.5), with a reload button. */
export function ErrorScreen() {
  const { t } = useTranslation();
  return (
    <Box role="alert" sx={{ minHeight: '100%', display: 'grid', placeItems: 'center', p: 4 }}>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', maxWidth: 520 }}>
        <Box
          sx={{
            width: 88,
            height: 88,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'rgba(237, 108, 2, 0.12)',
            color: 'warning.main',
          }}
        >
          <ReportProblemOutlined sx={{ fontSize: 48 }} aria-hidden />
        </Box>
        <Typography variant="h1" component="h1">
          {t('errorBoundary.title')}
        </Typography>
        <Typography variant="h3" component="p" sx={{ color: 'text.secondary', fontWeight: 500 }}>
          {t('errorBoundary.subtitle')}
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>{t('errorBoundary.hint')}</Typography>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t('errorBoundary.reload')}
        </Button>
      </Stack>
    </Box>
  );
}
