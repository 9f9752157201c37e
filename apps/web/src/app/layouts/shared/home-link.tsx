import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Logo } from '../../../components/logo';

/**
 * The logo linking to the start page, with the product name unless `markOnly`, and the horizontal
 * headers' fixed 'System Manager' subtitle when given (spec §2.5).
 */
export function HomeLink({ markOnly = false, subtitle }: { markOnly?: boolean; subtitle?: string }) {
  const { t } = useTranslation();
  return (
    <Link
      component={RouterLink}
      to="/"
      aria-label={t('header.home')}
      color="inherit"
      underline="none"
      sx={{ display: 'flex', alignItems: 'center', gap: 1.25, borderRadius: '6px', minWidth: 0 }}
    >
      <Logo size={34} />
      {markOnly ? null : (
        <Box component="span" sx={{ display: { xs: 'none', sm: 'flex' }, flexDirection: 'column', minWidth: 0 }}>
          <Typography
            component="span"
            noWrap
            sx={{
              fontSize: { xs: '1.1rem', sm: '1.25rem' },
              fontWeight: 600,
              letterSpacing: '-0.01em',
              lineHeight: 1.2,
            }}
          >
            {t('app.name')}
          </Typography>
          {subtitle ? (
            <Typography
              component="span"
              variant="caption"
              noWrap
              data-testid="header-subtitle"
              sx={{ color: 'text.secondary', lineHeight: 1.2, display: { xs: 'none', sm: 'block' } }}
            >
              {subtitle}
            </Typography>
          ) : null}
        </Box>
      )}
    </Link>
  );
}
