import HomeOutlined from '@mui/icons-material/HomeOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { IconComponent } from '../../../components/icon-type';
import { usePageTitle } from '../../../components/use-page-title';

/** Props of an error or status page. */
export interface StatusPageProps {
  /** Big label above the title, such as '404'; omitted for status pages. */
  code?: string;
  title: string;
  text: string;
  icon: IconComponent;
  tone: 'primary' | 'error' | 'warning' | 'info';
}

/** A full, friendly status screen with a button back to the start. */
export function StatusPage({ code, title, text, icon: Icon, tone }: StatusPageProps) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <Box sx={{ minHeight: '70vh', display: 'grid', placeItems: 'center', px: 2, py: 6, width: '100%' }}>
      <Stack spacing={2.5} sx={{ alignItems: 'center', textAlign: 'center', maxWidth: 520 }}>
        <Box
          sx={(theme) => ({
            width: 120,
            height: 120,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            color: `${tone}.main`,
            background: `radial-gradient(circle, ${alpha(theme.palette[tone].main, 0.22)} 0%, ${alpha(theme.palette[tone].main, 0.04)} 70%)`,
            boxShadow: `0 0 0 1px ${alpha(theme.palette[tone].main, 0.25)}`,
          })}
        >
          <Icon sx={{ fontSize: 56 }} aria-hidden />
        </Box>
        {code ? (
          <Typography
            aria-hidden
            sx={(theme) => ({
              fontSize: { xs: '4rem', sm: '5.5rem' },
              fontWeight: 600,
              lineHeight: 1,
              letterSpacing: '-0.04em',
              background: `linear-gradient(135deg, ${theme.palette.secondary.main}, ${theme.palette.primary.main})`,
              backgroundClip: 'text',
              WebkitBackgroundClip: 'text',
              color: 'transparent',
            })}
          >
            {code}
          </Typography>
        ) : null}
        <Typography variant="h1" component="h1">
          {title}
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>{text}</Typography>
        <Button component={RouterLink} to="/" variant="contained" size="large" startIcon={<HomeOutlined aria-hidden />}>
          {t('errorPages.backHome')}
        </Button>
      </Stack>
    </Box>
  );
}
