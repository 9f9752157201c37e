import CloseOutlined from '@mui/icons-material/CloseOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../components/use-error-text';
import type { HoldAction } from '../api/legal-hold';
import { useSessionDetail } from '../api/session-detail';
import type { SessionRow } from '../derive';
import { SessionActions } from './session-actions';
import { NotFilmedAlert } from './not-filmed';
import { SessionFacts } from './session-facts';
import { SessionTransfers } from './session-transfers';

/** Props of the detail panel of the selected session. */
export interface SessionDetailDrawerProps {
  /** The selected session as listed; null closes the panel. */
  row: SessionRow | null;
  refresh: boolean;
  canTerminate: boolean;
  onClose: () => void;
  onWatch: (row: SessionRow) => void;
  onReplay: (row: SessionRow) => void;
  onTerminate: (row: SessionRow) => void;
  /** The caller holds manage-legal-hold. */
  canHold?: boolean;
  onHold?: (row: SessionRow, action: HoldAction) => void;
}

/**
 * The selected session in a side panel (full width on a phone): its facts, from the list at once
 * and from GET api/recording/{id}/data as it arrives, and what can be done with it.
 */
export function SessionDetailDrawer(props: SessionDetailDrawerProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const titleId = useId();
  const detail = useSessionDetail(props.row?.id ?? null, props.refresh);
  const row = props.row;
  // The detail is fresher than the list row (it may have ended since): show its fields when loaded.
  const shown = row && detail.data?.id === row.id ? { ...row, ...detail.data } : row;

  return (
    <Drawer
      anchor="right"
      open={row !== null}
      onClose={props.onClose}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': titleId,
          sx: { width: { xs: '100%', sm: 460 }, maxWidth: '100%' },
        },
      }}
    >
      {shown ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100%' }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 3, pt: 2, pb: 1.5 }}>
            <Typography id={titleId} variant="h2" component="h2" sx={{ flex: 1, minWidth: 0 }}>
              {t('sessions.detail.title')}
            </Typography>
            <IconButton onClick={props.onClose} aria-label={t('common.close')} edge="end">
              <CloseOutlined />
            </IconButton>
          </Box>
          {detail.isFetching && !detail.data ? <LinearProgress aria-label={t('common.loading')} /> : <Divider />}
          <Box sx={{ px: 3, py: 2.5, display: 'flex', flexDirection: 'column', gap: 3 }}>
            {detail.isError ? (
              <Alert
                severity="error"
                variant="outlined"
                action={
                  <Button color="inherit" size="small" onClick={() => void detail.refetch()}>
                    {t('common.retry')}
                  </Button>
                }
              >
                {t('sessions.detail.loadFailed', { message: errorText(detail.error) })}
              </Alert>
            ) : null}
            <NotFilmedAlert row={shown} />
            <SessionActions
              row={shown}
              detail={detail.data?.id === shown.id ? detail.data : undefined}
              canTerminate={props.canTerminate}
              onWatch={() => props.onWatch(shown)}
              onReplay={() => props.onReplay(shown)}
              onTerminate={() => props.onTerminate(shown)}
              canHold={props.canHold}
              onHold={(action) => props.onHold?.(shown, action)}
            />
            <SessionFacts row={shown} detail={detail.data?.id === shown.id ? detail.data : undefined} />
            {shown.type === 'ssh' ? (
              <SessionTransfers id={shown.id} startedOn={shown.started_on} refresh={props.refresh} />
            ) : null}
          </Box>
        </Box>
      ) : null}
    </Drawer>
  );
}
