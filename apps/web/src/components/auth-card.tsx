import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from './logo';

/** The card every signed-out screen sits in: product mark, a title and the content. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper
      elevation={0}
      sx={{
        width: '100%',
        maxWidth: 440,
        p: { xs: 3, sm: 5 },
        borderRadius: 3,
        boxShadow: '0 24px 64px rgba(0,0,0,0.35)',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 4 }}>
        <Logo size={40} />
        <Box>
          <Typography component="p" sx={{ fontSize: '1.35rem', fontWeight: 600, lineHeight: 1.2 }}>
            {t('app.name')}
          </Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('app.tagline')}
          </Typography>
        </Box>
      </Box>
      <Typography variant="h2" component="h1" sx={{ mb: 0.75 }}>
        {title}
      </Typography>
      {subtitle ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 3.5 }}>
          {subtitle}
        </Typography>
      ) : (
        <Box sx={{ mb: 3 }} />
      )}
      {children}
    </Paper>
  );
}
