import NetworkCheckOutlined from '@mui/icons-material/NetworkCheckOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../components/use-error-text';
import type { ConnectionTestResult } from '../api/sso-config';

/** What a test mutation offers this component. */
export interface ConnectionTestState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: ConnectionTestResult | undefined;
}

/**
 * 'Test connection' with the server's verdict under it, in its own words. The test uses the values
 * on screen, saved or not.
 */
export function SsoConnectionTest(props: { test: ConnectionTestState; onTest: () => void; description: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { test } = props;
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<NetworkCheckOutlined />}
          onClick={props.onTest}
          loading={test.isPending}
          loadingPosition="start"
        >
          {t('settings.sso.test.button')}
        </Button>
        <Typography variant="body2" sx={{ color: 'text.secondary', flex: '1 1 240px' }}>
          {props.description}
        </Typography>
      </Box>
      {test.isError ? (
        <Alert severity="error" variant="outlined" sx={{ mt: 2 }}>
          <AlertTitle>{t('settings.sso.test.failed')}</AlertTitle>
          {errorText(test.error)}
        </Alert>
      ) : test.data && !test.isPending ? (
        <Alert severity={test.data.ok ? 'success' : 'error'} variant="outlined" sx={{ mt: 2 }}>
          <AlertTitle>{test.data.ok ? t('settings.sso.test.ok') : t('settings.sso.test.failed')}</AlertTitle>
          <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
            {test.data.message}
          </Box>
        </Alert>
      ) : null}
    </Box>
  );
}
