import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Versions } from '../api/versions';
import { useVersions } from '../api/versions';
import { DesiredVersionForm } from './desired-version-form';
import { FactList } from './fact-list';
import { LoadFailed } from './load-failed';
import { SectionCard } from './section-card';
import { intlLocale } from '../../../lib/format';

function AgentVersions({ versions }: { versions: Versions }) {
  const { t, i18n } = useTranslation();
  if (versions.agents.length === 0) return <>{t('settings.versions.noAgents')}</>;
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', gap: 0.75 }}>
      {versions.agents.map(({ version, count }) => {
        const differs = versions.desired_agent_version !== null && version !== versions.desired_agent_version;
        return (
          <Chip
            key={version}
            size="small"
            variant="outlined"
            color={differs ? 'warning' : 'default'}
            label={t('settings.versions.agentCount', {
              version,
              count: count.toLocaleString(intlLocale(i18n.language)),
            })}
            title={differs ? t('settings.versions.differs') : undefined}
          />
        );
      })}
    </Box>
  );
}

/** Versions of the server, console and agents seen, and the desired agent version tag (manage-kubernetes edits it). */
export function VersionsSection({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const versions = useVersions();
  return (
    <SectionCard
      icon={Inventory2Outlined}
      title={t('settings.versions.title')}
      subtitle={t('settings.versions.subtitle')}
    >
      {versions.isPending ? (
        <Skeleton variant="rounded" height={140} />
      ) : versions.isError ? (
        <LoadFailed error={versions.error} onRetry={() => void versions.refetch()} />
      ) : (
        <>
          <FactList
            facts={[
              { label: t('settings.versions.server'), value: versions.data.server },
              { label: t('settings.versions.console'), value: versions.data.console },
              { label: t('settings.versions.build'), value: versions.data.build_number },
              { label: t('settings.versions.agents'), value: <AgentVersions versions={versions.data} /> },
              {
                label: t('settings.versions.desired'),
                value: versions.data.desired_agent_version ?? t('settings.versions.desiredNone'),
              },
              ...versions.data.statefulsets.map((set) => ({ label: set.name, value: `${set.image}:${set.tag}` })),
            ]}
          />
          {versions.data.kubernetes ? null : (
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 2 }}>
              {t('settings.versions.embedded')}
            </Typography>
          )}
          {canManage ? (
            <>
              <Divider sx={{ my: 3 }} />
              <DesiredVersionForm current={versions.data.desired_agent_version} />
            </>
          ) : null}
        </>
      )}
    </SectionCard>
  );
}
