import PaletteOutlined from '@mui/icons-material/PaletteOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The panel loads on the first click: it is rarely opened, so it stays out of the initial bundle.
const SettingsPanel = lazy(() =>
  import('../settings-panel/settings-panel').then((module) => ({ default: module.SettingsPanel })),
);

/** The header's Customize button (palette icon) and the theme settings panel it opens (spec §2.9). */
export function CustomizeButton({ tooltipPlacement = 'bottom' }: { tooltipPlacement?: 'bottom' | 'right' }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <Tooltip title={t('themeSettings.customize')} placement={tooltipPlacement}>
        <IconButton
          color="inherit"
          aria-label={t('themeSettings.customize')}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => {
            setWanted(true);
            setOpen(true);
          }}
        >
          <PaletteOutlined />
        </IconButton>
      </Tooltip>
      {wanted ? (
        <Suspense fallback={null}>
          <SettingsPanel open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
