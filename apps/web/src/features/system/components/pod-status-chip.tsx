import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import HelpOutlineOutlined from '@mui/icons-material/HelpOutlineOutlined';
import Chip from '@mui/material/Chip';
import type { ChipProps } from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { PodState } from '../model/health';

const LOOK: Record<PodState, { color: ChipProps['color']; icon: typeof CheckCircleOutlined }> = {
  Running: { color: 'success', icon: CheckCircleOutlined },
  Failed: { color: 'error', icon: ErrorOutlineOutlined },
  Unknown: { color: 'default', icon: HelpOutlineOutlined },
};

/** A component's state: Running green, Failed red, Unknown grey, each with its own icon (not colour alone). */
export function PodStatusChip({ status }: { status: PodState }) {
  const { t } = useTranslation();
  const { color, icon: Icon } = LOOK[status];
  return (
    <Chip
      size="small"
      color={color}
      variant={status === 'Unknown' ? 'filled' : 'outlined'}
      icon={<Icon aria-hidden />}
      label={t(`systemStatus.state.${status}`)}
      data-status={status}
      sx={{ fontWeight: 600 }}
    />
  );
}
