import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { useGeneralSettings, useSaveGeneralSettings } from '../api/general-settings';
import { toGeneralForm } from '../model/general-form';
import { GeneralSettingsForm } from './general-settings-form';
import { LoadFailed } from './load-failed';
import { SectionCard } from './section-card';

/** General settings (manage-settings): sign-up, recording, idle timeout, banner, public URL and mail. */
export function GeneralSettingsSection() {
  const { t } = useTranslation();
  const settings = useGeneralSettings(true);
  const save = useSaveGeneralSettings();
  return (
    <SectionCard icon={TuneOutlined} title={t('settings.general.title')} subtitle={t('settings.general.subtitle')}>
      {settings.isPending ? (
        <Skeleton variant="rounded" height={320} />
      ) : settings.isError ? (
        <LoadFailed error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        // Keyed by the stored values, so a save (or another administrator's) resets the form to them.
        <GeneralSettingsForm
          key={JSON.stringify(settings.data)}
          initial={toGeneralForm(settings.data)}
          passwordSet={settings.data.smtp.password_set === true}
          save={save}
        />
      )}
    </SectionCard>
  );
}
