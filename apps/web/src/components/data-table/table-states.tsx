import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-error';
import type { IconComponent } from '../icon-type';

/** What a list shows when it has nothing yet: what it is for and what to do next. */
export function EmptyState(props: { icon: IconComponent; title: string; hint: string; action?: ReactNode }) {
  const Icon = props.icon;
  return (
    <Paper
      variant="outlined"
      sx={{ py: { xs: 5, md: 8 }, px: 3, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5 }}
    >
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
      <Typography variant="h3" component="h2" sx={{ textAlign: 'center' }}>
        {props.title}
      </Typography>
      <Typography sx={{ color: 'text.secondary', maxWidth: 480, textAlign: 'center' }}>{props.hint}</Typography>
      {props.action ? <Box sx={{ mt: 1 }}>{props.action}</Box> : null}
    </Paper>
  );
}

/** A list that failed to load: the server's reason and a button to try again. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      variant="outlined"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    >
      {t('common.loadFailed', { message: errorText(error, t('message.somethingWentWrong')) })}
    </Alert>
  );
}
