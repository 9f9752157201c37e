import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { integrityDetail } from '../../../components/integrity-detail';
import { useIntegrity } from '../api/integrity';

const COLORS = {
  intact: 'success',
  tampered: 'error',
  missing: 'error',
  unsigned: 'warning',
  live: 'info',
} as const;

const VIDEO_COLORS = {
  intact: 'success',
  tampered: 'error',
  uploading: 'info',
  uncovered: 'warning',
} as const;

/** The recording's integrity against its hash chain and signed manifest, with the server's reason. */
export function IntegrityChip({ recordingId }: { recordingId: string }) {
  const { t, i18n } = useTranslation();
  const integrity = useIntegrity(recordingId);
  if (integrity.isPending) return <Chip size="small" variant="outlined" label={t('player.integrity.checking')} />;
  if (integrity.isError)
    return (
      <Tooltip title={integrity.error.message}>
        <Chip size="small" variant="outlined" color="warning" label={t('player.integrity.failed')} />
      </Tooltip>
    );
  const { status, video } = integrity.data;
  // What was found in the console language (the server's message is English and technical).
  const chip = (
    <Tooltip title={integrityDetail(integrity.data, t, i18n.language)}>
      <Chip
        size="small"
        color={COLORS[status]}
        data-testid="integrity"
        data-status={status}
        label={`${t('player.integrity.label')}: ${t(`player.integrity.${status}`)}`}
      />
    </Tooltip>
  );
  if (!video) return chip;
  // An rdp session's video: whether the signature covers it (a tampered one already made the status tampered).
  const videoText =
    video.cut && video.status === 'intact'
      ? t('player.integrityVideo.cut')
      : t(`player.integrityVideo.${video.status}`);
  return (
    <>
      {chip}
      <Tooltip title={videoText}>
        <Chip
          size="small"
          variant="outlined"
          color={VIDEO_COLORS[video.status]}
          data-testid="integrity-video"
          data-status={video.status}
          label={`${t('player.integrityVideo.label')}: ${videoText}`}
        />
      </Tooltip>
    </>
  );
}
