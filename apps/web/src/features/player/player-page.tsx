import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTheme } from '@mui/material/styles';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { type RecordingDetail, useRecordingDetail } from './api/recording-detail';
import { LiveView } from './components/live-view';
import { RecordingFacts } from './components/recording-facts';
import { ReplayPlayer } from './components/replay-player';
import { VideoPlayer } from './components/video-player';

/**
 * /recordings/:id: one session with its facts and the right player: the video for RDP, the terminal
 * replay for SSH, and for a live SSH session the live view with a replay from the start beside it.
 */
export function PlayerPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const { id = '' } = useParams();
  const detail = useRecordingDetail(id);
  const back = (
    <Button
      component={RouterLink}
      to="/recordings"
      startIcon={<ArrowBackOutlined sx={{ transform: theme.direction === 'rtl' ? 'scaleX(-1)' : undefined }} />}
    >
      {t('player.page.back')}
    </Button>
  );
  if (detail.isPending)
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 10 }}>
        <CircularProgress aria-label={t('common.loading')} />
      </Box>
    );
  if (detail.isError)
    return (
      <Box>
        <PageHeader title={t('pages.sessions')} actions={back} />
        <Alert severity="error">{t('player.page.loadFailed', { message: detail.error.message })}</Alert>
      </Box>
    );
  const recording = detail.data;
  return (
    <Box>
      <PageHeader title={t('player.page.title', { host: recording.host.hostname })} actions={back} />
      <RecordingFacts recording={recording} />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 1.5 }, mt: 1.5 }}>
        <PlayerFor recording={recording} />
      </Paper>
    </Box>
  );
}

function PlayerFor({ recording }: { recording: RecordingDetail }) {
  const { t } = useTranslation();
  // A session that ends while watched keeps its live view (showing Ended) until the page reloads.
  const [live] = useState(recording.ended_on === null);
  // ?view=replay opens a live session's replay from the start (the sessions list links so).
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'replay' ? 'replay' : 'live';
  const setView = (next: 'live' | 'replay') =>
    setParams(next === 'replay' ? { view: 'replay' } : {}, { replace: true });
  if (recording.type === 'rdp' || recording.has_video) return <VideoPlayer recording={recording} />;
  if (recording.type !== 'ssh') return <Alert severity="info">{t('player.page.noPlayer')}</Alert>;
  if (!live) return <ReplayPlayer recording={recording} />;
  return (
    <Box>
      <Tabs value={view} onChange={(_event, value: 'live' | 'replay') => setView(value)} sx={{ mb: 2 }}>
        <Tab value="live" label={t('player.page.watchLive')} />
        <Tab value="replay" label={t('player.page.replayFromStart')} />
      </Tabs>
      {view === 'live' ? <LiveView recordingId={recording.id} /> : <ReplayPlayer recording={recording} />}
    </Box>
  );
}

export default PlayerPage;
