import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import type { AgentItem } from '../api/list-agents';

/**
 * Whether the host's RDP sessions are being filmed now ("Filming 2 sessions" or "Not filming"),
 * and under it the last capture error, with its time as a tooltip (issue 18). The error is the
 * agent's words, shown as text.
 */
export function CaptureStatusCell({ capture }: { capture: AgentItem['capture'] }) {
  const { t } = useTranslation();
  const filming = capture?.filming ?? 0;
  const error = capture?.last_error ?? null;
  const at = capture?.last_error_at ?? null;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', minWidth: 0, lineHeight: 1.3 }}>
      <Typography variant="body2" component="span" sx={{ color: filming > 0 ? 'success.main' : 'text.secondary' }}>
        {filming === 1
          ? t('hosts.capture.filmingOne')
          : filming > 1
            ? t('hosts.capture.filmingMany', { count: filming })
            : t('hosts.capture.notFilming')}
      </Typography>
      {error ? (
        <Tooltip title={at ? t('hosts.capture.lastErrorAt', { time: formatDateTime(at), error }) : error} describeChild>
          <Typography
            variant="caption"
            component="span"
            dir="auto"
            sx={{ color: 'warning.main', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {t('hosts.capture.lastError', { error })}
          </Typography>
        </Tooltip>
      ) : null}
    </Box>
  );
}
