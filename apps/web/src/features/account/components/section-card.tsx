import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useId } from 'react';
import type { IconComponent } from '../../../components/icon-type';

/** One section of the account page: an icon, a heading, an optional action and the content. */
export function SectionCard(props: { icon: IconComponent; title: string; action?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  const Icon = props.icon;
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, md: 3 }, height: '100%' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
        <Icon sx={{ color: 'primary.main' }} aria-hidden />
        <Typography id={headingId} variant="h3" component="h2" sx={{ flex: 1 }}>
          {props.title}
        </Typography>
        {props.action}
      </Box>
      {props.children}
    </Paper>
  );
}
