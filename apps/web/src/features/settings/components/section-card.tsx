import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useId } from 'react';
import type { IconComponent } from '../../../components/icon-type';

/** One settings section: an icon, a heading, an optional subtitle and action, then the content. */
export function SectionCard(props: {
  icon: IconComponent;
  title: string;
  subtitle?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  const Icon = props.icon;
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 } }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5, mb: 2.5, flexWrap: 'wrap' }}>
        <Icon sx={{ color: 'primary.main', mt: 0.25 }} aria-hidden />
        <Box sx={{ flex: 1, minWidth: 200 }}>
          <Typography id={headingId} variant="h3" component="h2">
            {props.title}
          </Typography>
          {props.subtitle ? (
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
              {props.subtitle}
            </Typography>
          ) : null}
        </Box>
        {props.action}
      </Box>
      {props.children}
    </Paper>
  );
}
