import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/api-error';

/**
 * Something could not load: the server's reason (a 403 names the permission) and a retry.
 * `messageId` is the feature's message, with {{message}} for the reason.
 */
export function LoadFailed({ error, onRetry, messageId }: { error: unknown; onRetry: () => void; messageId: string }) {
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
      {t(messageId, { message: errorText(error, t('message.somethingWentWrong')) })}
    </Alert>
  );
}
