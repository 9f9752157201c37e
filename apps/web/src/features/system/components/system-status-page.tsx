import DnsOutlined from '@mui/icons-material/DnsOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import dayjs from 'dayjs';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState, ErrorState } from '../../../components/data-table/table-states';
import { PageHeader } from '../../../components/page-header';
import { usePods } from '../api/list-pods';
import { ComponentList } from './component-list';
import { HealthSummaryBanner } from './health-summary';
import { LogsPanel } from './logs-panel';

/**
 * /systemStatus (spec §2.2, §4): each component's health with the system summary, checked every
 * 30 s, on demand and whenever the cluster socket reports a change; the chosen component's
 * recent log (?component=<name> in the address, so a log can be linked).
 */
export function SystemStatusPage() {
  const { t } = useTranslation();
  const pods = usePods();
  const [params, setParams] = useSearchParams();
  const logsId = useId();
  const selected = params.get('component');
  const data = pods.data?.pods;
  // Below the large breakpoint the log is under the list: choosing a component brings it into view.
  const stacked = useMediaQuery(useTheme().breakpoints.down('lg'));
  const select = (name: string) => {
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        next.set('component', name);
        return next;
      },
      { replace: true },
    );
    if (stacked) requestAnimationFrame(() => document.getElementById(logsId)?.scrollIntoView({ block: 'start' }));
  };

  const refresh = (
    <Tooltip title={t('common.refresh')}>
      <span>
        <IconButton aria-label={t('common.refresh')} onClick={() => void pods.refetch()} disabled={pods.isFetching}>
          {pods.isFetching ? <CircularProgress size={20} aria-hidden /> : <RefreshOutlined />}
        </IconButton>
      </span>
    </Tooltip>
  );

  let body;
  if (pods.isError && !data) {
    body = <ErrorState error={pods.error} onRetry={() => void pods.refetch()} />;
  } else if (data && data.length === 0) {
    body = <EmptyState icon={DnsOutlined} title={t('systemStatus.empty.title')} hint={t('systemStatus.empty.hint')} />;
  } else {
    body = (
      <>
        {pods.isError ? (
          <Alert severity="warning" variant="outlined" sx={{ mb: 2 }}>
            {t('systemStatus.refreshFailed', { time: dayjs(pods.dataUpdatedAt).format('LTS') })}
          </Alert>
        ) : null}
        <HealthSummaryBanner pods={data} updatedAt={pods.dataUpdatedAt} />
        <Box
          sx={{
            display: 'grid',
            gap: { xs: 2, md: 3 },
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(300px, 380px) minmax(0, 1fr)' },
            alignItems: 'start',
          }}
        >
          <ComponentList pods={data} selected={selected} onSelect={select} logsId={logsId} />
          <LogsPanel id={logsId} pod={data?.find((pod) => pod.name === selected)} />
        </Box>
      </>
    );
  }

  return (
    <Box>
      <PageHeader title={t('pages.systemStatus')} subtitle={t('systemStatus.subtitle')} actions={refresh} />
      {body}
    </Box>
  );
}
