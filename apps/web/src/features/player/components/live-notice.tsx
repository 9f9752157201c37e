import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import type { LiveState } from '../live/live-watch';

/**
 * What the live view says when output stopped for a reason: the server's refusal, or being dropped
 * for falling behind the live output, with the button that attaches again.
 */
export function LiveNotice({ state, onReattach }: { state: LiveState; onReattach: () => void }) {
  const { t } = useTranslation();
  if (state.status === 'error')
    return <Alert severity="error">{t('player.live.error', { message: state.error ?? '' })}</Alert>;
  if (state.status !== 'dropped') return null;
  return (
    <Alert
      severity="warning"
      role="alert"
      action={
        <Button color="inherit" size="small" onClick={onReattach}>
          {t('player.live.reattach')}
        </Button>
      }
    >
      {t('player.live.dropped')}
    </Alert>
  );
}
