import HourglassEmptyOutlined from '@mui/icons-material/HourglassEmptyOutlined';
import type { IconComponent } from './icon-type';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from './page-header';

/**
 * A product screen that a later release fills in: its title and a plain empty state. It shows
 * no sample data on purpose.
 */
export function NotAvailableScreen({
  title,
  icon,
  children,
}: {
  title: string;
  icon?: IconComponent;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const Icon = icon ?? HourglassEmptyOutlined;
  return (
    <Box>
      <PageHeader title={title} />
      <Paper
        variant="outlined"
        sx={{
          py: { xs: 6, md: 10 },
          px: 3,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: 2,
          textAlign: 'center',
        }}
      >
        <Box
          sx={{
            width: 72,
            height: 72,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'action.hover',
            color: 'primary.main',
          }}
        >
          <Icon sx={{ fontSize: 36 }} aria-hidden />
        </Box>
        <Typography variant="h3" component="h2">
          {t('common.notAvailableTitle')}
        </Typography>
        <Typography sx={{ color: 'text.secondary', maxWidth: 440 }}>{t('common.notAvailableYet')}</Typography>
        {children}
      </Paper>
    </Box>
  );
}
