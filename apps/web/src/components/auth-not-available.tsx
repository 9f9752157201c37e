import HourglassEmptyOutlined from '@mui/icons-material/HourglassEmptyOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AuthCard } from './auth-card';
import type { IconComponent } from './icon-type';
import { usePageTitle } from './use-page-title';

/** A signed-out screen a later release fills in: its title, a plain note and a way back. */
export function AuthNotAvailable({ title, icon }: { title: string; icon?: IconComponent }) {
  const { t } = useTranslation();
  usePageTitle(title);
  const Icon = icon ?? HourglassEmptyOutlined;
  return (
    <AuthCard title={title}>
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 2, py: 2 }}>
        <Box
          sx={{
            width: 64,
            height: 64,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'action.hover',
            color: 'primary.main',
          }}
        >
          <Icon sx={{ fontSize: 32 }} aria-hidden />
        </Box>
        <Typography variant="h4" component="h2">
          {t('common.notAvailableTitle')}
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>{t('common.notAvailableYet')}</Typography>
        <Button component={RouterLink} to="/signin" variant="outlined" sx={{ mt: 1 }}>
          {t('common.backToSignIn')}
        </Button>
      </Box>
    </AuthCard>
  );
}
