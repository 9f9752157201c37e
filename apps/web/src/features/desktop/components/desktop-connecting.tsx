import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The wait for the server's ready: what is happening, and Cancel. */
export function DesktopConnecting({ title, hint, onCancel }: { title: string; hint: string; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <Box role="status" sx={{ textAlign: 'center', maxWidth: 420 }}>
      <CircularProgress aria-label={title} />
      <Typography variant="h2" component="p" sx={{ fontSize: '1.1rem', mt: 2, overflowWrap: 'anywhere' }}>
        {title}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
        {hint}
      </Typography>
      <Button onClick={onCancel} sx={{ mt: 2 }}>
        {t('common.cancel')}
      </Button>
    </Box>
  );
}
