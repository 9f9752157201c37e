import ScienceOutlined from '@mui/icons-material/ScienceOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../lib/use-session';
import { setMockData } from '../mock/flag';

/** A failure's reason short enough for the mark (the whole text is its title). */
function shortReason(reason: string): string {
  const text = reason.replace(/^\[MSW\]\s*/, '');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/**
 * The mark of mock data, on screen in every layout while the flag is on (the console otherwise
 * shows only what the server answers): 'Mock data — not your server' with a button to turn it off;
 * signed out, it says any email and password sign in. `failure` says why the mock API did not
 * start (the console then talks to the server). Mounted by main.tsx beside the app, outside its
 * theme, so it uses fixed colours readable on light and dark pages; it sits at the end corner, away
 * from the sidebar (logical insets follow RTL).
 */
export function MockDataBanner({ failure }: { failure?: string }) {
  const { t } = useTranslation();
  const { token } = useSession();
  const [leaving, setLeaving] = useState(false);
  return (
    <Box
      component="aside"
      aria-label={t('mockData.banner.label')}
      data-testid="mock-data-banner"
      sx={{
        position: 'fixed',
        insetInlineEnd: 12,
        bottom: 12,
        // Above drawers and dialogs (1200, 1300), below snackbars (1400) and tooltips.
        zIndex: 1350,
        maxWidth: 'calc(100vw - 24px)',
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 1,
        px: 1.5,
        py: 0.75,
        borderRadius: 2,
        bgcolor: failure ? '#B71C1C' : '#FFC400',
        color: failure ? '#FFFFFF' : '#1F1300',
        boxShadow: 6,
        fontFamily: 'inherit',
        fontSize: '0.875rem',
        lineHeight: 1.4,
      }}
    >
      <ScienceOutlined fontSize="small" aria-hidden />
      <Box component="strong" sx={{ fontWeight: 600 }} title={failure}>
        {failure ? t('mockData.banner.failed', { reason: shortReason(failure) }) : t('mockData.banner.title')}
      </Box>
      {!failure && !token ? <Box component="span">{t('mockData.banner.signInHint')}</Box> : null}
      <Button
        size="small"
        variant="outlined"
        color="inherit"
        disabled={leaving}
        onClick={() => {
          setLeaving(true);
          void setMockData(false);
        }}
        sx={{
          fontFamily: 'inherit',
          py: 0,
          borderColor: 'currentColor',
          '&:focus-visible': { outline: '2px solid currentColor', outlineOffset: 2 },
        }}
      >
        {t('mockData.banner.turnOff')}
      </Button>
    </Box>
  );
}
