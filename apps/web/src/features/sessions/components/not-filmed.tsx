import VideocamOffOutlined from '@mui/icons-material/VideocamOffOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import type { SessionRow } from '../derive';

/** The part of a session these need: how its video stands and why (issue 18). */
type Filmed = Pick<SessionRow, 'video_state' | 'video_note'>;

/** True for an RDP session through a tunnel that ran (or was refused) without being filmed. */
export function isNotFilmed(row: Filmed): boolean {
  return row.video_state === 'not-filmed';
}

/** The list's chip: "Not filmed", with why as its tooltip. */
export function NotFilmedChip({ row }: { row: Filmed }) {
  const { t } = useTranslation();
  if (!isNotFilmed(row)) return null;
  const reason = row.video_note ?? t('sessions.video.noReason');
  return (
    <Tooltip title={reason} describeChild>
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        icon={<VideocamOffOutlined aria-hidden />}
        label={t('sessions.video.notFilmed')}
        sx={{ ml: 0.5 }}
      />
    </Tooltip>
  );
}

/** The detail's warning: "Not filmed: <reason>", the reason as the agent or server gave it (text only). */
export function NotFilmedAlert({ row }: { row: Filmed }) {
  const { t } = useTranslation();
  if (!isNotFilmed(row)) return null;
  return (
    <Alert severity="warning" variant="outlined" icon={<VideocamOffOutlined />}>
      <Box component="span" dir="auto" sx={{ overflowWrap: 'anywhere' }}>
        {t('sessions.video.notFilmedBecause', { reason: row.video_note ?? t('sessions.video.noReason') })}
      </Box>
    </Alert>
  );
}
