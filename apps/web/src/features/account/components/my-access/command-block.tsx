import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../../components/copy-button';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context';

/**
 * One copy-ready command: its label, the command left-to-right (also in Arabic) and wrapped so
 * nothing is cut off on a phone, and a copy button named after what it copies.
 */
export function CommandBlock({ label, command, copyLabel }: { label: string; command: string; copyLabel: string }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const labelId = useId();
  const copy = async () => {
    if (await copyText(command)) snackbar.success(t('common.copied'));
    else snackbar.error(t('shared.copyFailed'));
  };
  return (
    <Box role="group" aria-labelledby={labelId} sx={{ mb: 1.5 }}>
      <Typography id={labelId} variant="caption" component="div" sx={{ color: 'text.secondary', mb: 0.5 }}>
        {label}
      </Typography>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'flex-start',
          gap: 1,
          bgcolor: 'action.hover',
          borderRadius: 1,
          pl: 1.5,
          pr: 0.5,
          py: 0.5,
        }}
      >
        <Box
          component="pre"
          dir="ltr"
          sx={{
            flex: 1,
            minWidth: 0,
            m: 0,
            py: 0.75,
            fontFamily: 'monospace',
            fontSize: '0.8125rem',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            textAlign: 'start',
            unicodeBidi: 'isolate',
          }}
        >
          {command.trimEnd()}
        </Box>
        <Tooltip title={copyLabel}>
          <IconButton aria-label={copyLabel} onClick={() => void copy()} size="small">
            <ContentCopyOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
    </Box>
  );
}
