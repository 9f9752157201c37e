import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useMetadata } from '../../../features/system/api/metadata';
import { copyrightYear } from '../../../lib/copyright';
import { FIXED_FOOTER_HEIGHT } from './layout-sizes';

/**
 * The footer: server version, build number and tag (api/metadata) and the copyright line. Fluid
 * it ends the scrolling content; fixed it stays under the content at the height of spec §9.
 */
export function AppFooter({ type, maxWidth }: { type: 'fluid' | 'fixed'; maxWidth?: { xs: number; xl: number } }) {
  const { t } = useTranslation();
  const { data } = useMetadata();
  return (
    <Box
      component="footer"
      data-footer-type={type}
      sx={{
        px: { xs: 2, sm: 3, md: 4 },
        py: type === 'fixed' ? 0 : 1.5,
        flexShrink: 0,
        alignItems: 'center',
        width: '100%',
        mx: 'auto',
        maxWidth: maxWidth ?? 'none',
        ...(type === 'fixed' ? { height: FIXED_FOOTER_HEIGHT, bgcolor: 'background.paper', overflow: 'hidden' } : {}),
        borderTop: 1,
        borderColor: 'divider',
        display: 'flex',
        flexWrap: type === 'fixed' ? 'nowrap' : 'wrap',
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
