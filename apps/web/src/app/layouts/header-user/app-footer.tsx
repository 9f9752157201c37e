import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useMetadata } from '../../../features/system/api/metadata';
import { copyrightYear } from '../../../lib/copyright';

/** The fluid footer: server version, build number and tag (api/metadata) and the copyright line. */
export function AppFooter() {
  const { t } = useTranslation();
  const { data } = useMetadata();
  return (
    <Box
      component="footer"
      sx={{
        px: { xs: 2, sm: 3, md: 4 },
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1,
        justifyContent: 'space-between',
        color: 'text.secondary',
      }}
    >
      <Typography variant="caption" component="p" data-testid="footer-version">
        {data
          ? t(data.buildTag ? 'footer.version' : 'footer.versionNoTag', {
              version: data.version,
              buildNumber: data.buildNumber,
              buildTag: data.buildTag,
            })
          : null}
      </Typography>
      <Typography variant="caption" component="p">
        {t('footer.copyright', { year: copyrightYear() })}
      </Typography>
    </Box>
  );
}
