import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiCall } from '../../../lib/api-client';
import { mediaUrl } from '../api/media';
import { PLAYER_API, PLAYER_KEYS } from '../api/player-routes';
import { SPEEDS } from '../replay/playback-clock';
import { DownloadButton } from './download-button';
import { IntegrityChip } from './integrity-chip';

/**
 * Plays an RDP session's video. The browser fetches it with range requests (so seeking works
 * without the whole file) through a ticket URL; when a ticket runs out during a long viewing, a
 * fresh one is fetched and playback resumes where it was.
 */
export function VideoPlayer({ recording }: { recording: { id: string } }) {
  const { t } = useTranslation();
  const id = recording.id;
  const video = useRef<HTMLVideoElement>(null);
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [speed, setSpeed] = useState(1);
  const resumeAt = useRef(0);
  const renewedAt = useRef(0);
  const available = useQuery({
    queryKey: PLAYER_KEYS.playback(id),
    queryFn: ({ signal }) => apiCall(PLAYER_API.playbackAvailable, { params: { id }, signal }),
  });
  const hasVideo = available.data?.available === true;

  useEffect(() => {
    if (!hasVideo) return;
    let cancelled = false;
    mediaUrl(id, 'video').then(
      (url) => !cancelled && setSrc(url),
      (failure: unknown) => !cancelled && setError((failure as Error).message),
    );
    return () => {
      cancelled = true;
    };
  }, [id, hasVideo]);

  useEffect(() => {
    if (video.current) video.current.playbackRate = speed;
  }, [speed, src]);

  const renewTicket = () => {
    const element = video.current;
    resumeAt.current = element?.currentTime ?? 0;
    mediaUrl(id, 'video').then(setSrc, (failure: unknown) => setError((failure as Error).message));
  };

  if (available.isError)
    return <Alert severity="error">{t('player.video.failed', { message: available.error.message })}</Alert>;
  if (available.data && !hasVideo) return <Alert severity="info">{t('player.video.none')}</Alert>;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <IntegrityChip recordingId={id} />
        <Box sx={{ flex: 1 }} />
        <TextField
          select
          size="small"
          label={t('player.video.speed')}
          value={speed}
          onChange={(event) => setSpeed(Number(event.target.value))}
          sx={{ minWidth: 110 }}
        >
          {SPEEDS.map((value) => (
            <MenuItem key={value} value={value}>{`${String(value)}×`}</MenuItem>
          ))}
        </TextField>
        <DownloadButton recordingId={id} kind="video" />
      </Stack>
      {available.data?.live ? <Alert severity="info">{t('player.video.uploading')}</Alert> : null}
      {error ? <Alert severity="error">{t('player.video.failed', { message: error })}</Alert> : null}
      {src ? (
        <Box
          component="video"
          ref={video}
          src={src}
          controls
          preload="metadata"
          aria-label={t('player.video.label')}
          data-testid="video-player"
          onLoadedMetadata={(event) => {
            const element = event.currentTarget;
            element.playbackRate = speed;
            if (resumeAt.current > 0) element.currentTime = resumeAt.current;
          }}
          onError={(event) => {
            // An expired ticket fails the next range request: renew it once, then show the error.
            if (Date.now() - renewedAt.current > 30_000) {
              renewedAt.current = Date.now();
              renewTicket();
            } else setError(event.currentTarget.error?.message || 'MEDIA_ERR');
          }}
          // Its controls (the browser's, at its bottom) stay above the fold: the video leaves room for the header and facts above it.
          sx={{ width: '100%', maxHeight: 'max(240px, calc(100vh - 380px))', bgcolor: 'black', borderRadius: 1 }}
        />
      ) : null}
    </Stack>
  );
}
