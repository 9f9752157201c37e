import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import EngineeringOutlined from '@mui/icons-material/EngineeringOutlined';
import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import TravelExploreOutlined from '@mui/icons-material/TravelExploreOutlined';
import { useTranslation } from 'react-i18next';
import { StatusPage } from './status-page';

/** /error-pages/error-404, also where unknown paths land. */
export function Error404Page() {
  const { t } = useTranslation();
  return (
    <StatusPage
      code="404"
      title={t('errorPages.notFound.title')}
      text={t('errorPages.notFound.text')}
      icon={TravelExploreOutlined}
      tone="primary"
    />
  );
}

/** /error-pages/error-500. */
export function Error500Page() {
  const { t } = useTranslation();
  return (
    <StatusPage
      code="500"
      title={t('errorPages.serverError.title')}
      text={t('errorPages.serverError.text')}
      icon={CloudOffOutlined}
      tone="error"
    />
  );
}

/** /error-pages/coming-soon. */
export function ComingSoonPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      title={t('errorPages.comingSoon.title')}
      text={t('errorPages.comingSoon.text')}
      icon={RocketLaunchOutlined}
      tone="info"
    />
  );
}

/** /error-pages/maintenance. */
export function MaintenancePage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      title={t('errorPages.maintenance.title')}
      text={t('errorPages.maintenance.text')}
      icon={EngineeringOutlined}
      tone="warning"
    />
  );
}
