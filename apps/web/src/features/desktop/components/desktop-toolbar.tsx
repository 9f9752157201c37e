import ContentPasteOffOutlined from '@mui/icons-material/ContentPasteOffOutlined';
import ContentPasteOutlined from '@mui/icons-material/ContentPasteOutlined';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import FullscreenExitOutlined from '@mui/icons-material/FullscreenExitOutlined';
import FullscreenOutlined from '@mui/icons-material/FullscreenOutlined';
import KeyboardOutlined from '@mui/icons-material/KeyboardOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** What the toolbar offers; a missing handler leaves its button out. */
export interface DesktopToolbarProps {
  /** The definition's name and host, or the watched session's host. */
  title: string;
  /** True on the watch screen: the view-only banner instead of the recording notice. */
  watching?: boolean;
  /** The buttons that act on a shown desktop appear only while it is shown. */
  connected: boolean;
  fullscreen: { active: boolean; toggle: () => void };
  onCtrlAltDel?: () => void;
  onClipboard?: () => void;
  /** True when the desktop copied something not yet looked at. */
  clipboardNew?: boolean;
  /** The definition turned the clipboard off: a note says so where the button would be. */
  clipboardOff?: boolean;
  onLeave?: () => void;
}

/**
 * The bar above the desktop: the host, the recording notice (or the view-only banner), and the
 * buttons in reading order, each reachable with Tab before the desktop takes the keyboard.
 */
export function DesktopToolbar(props: DesktopToolbarProps) {
  const { t } = useTranslation();
  const { connected, fullscreen } = props;
  return (
    <Box
      role="toolbar"
      aria-label={t('desktop.toolbar.label')}
      sx={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 1,
        px: 1.5,
        py: 1,
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Typography
        variant="h1"
        component="h1"
        noWrap
        dir="auto"
        title={props.title}
        sx={{ fontSize: '1.05rem', fontWeight: 600, minWidth: 0, flexShrink: 1, maxWidth: { xs: '100%', sm: '40%' } }}
      >
        {props.title}
      </Typography>
      {props.watching ? (
        <Chip
          icon={<VisibilityOutlined />}
          color="info"
          size="small"
          label={t('desktop.watching')}
          sx={{ fontWeight: 600 }}
        />
      ) : (
        <Chip
          icon={<FiberManualRecord sx={{ '&&': { color: 'error.main' } }} />}
          variant="outlined"
          size="small"
          label={t('desktop.recorded')}
          sx={{ fontWeight: 600 }}
        />
      )}
      <Box sx={{ flex: 1 }} />
      {connected && props.onCtrlAltDel ? (
        <Button size="small" startIcon={<KeyboardOutlined />} onClick={props.onCtrlAltDel}>
          <bdi dir="ltr">{t('desktop.toolbar.ctrlAltDel')}</bdi>
        </Button>
      ) : null}
      {connected && props.onClipboard ? (
        <Button
          size="small"
          startIcon={
            <Badge color="primary" variant="dot" invisible={!props.clipboardNew}>
              <ContentPasteOutlined />
            </Badge>
          }
          onClick={props.onClipboard}
        >
          {t('desktop.toolbar.clipboard')}
        </Button>
      ) : null}
      {connected && props.clipboardOff ? (
        <Chip
          icon={<ContentPasteOffOutlined />}
          size="small"
          variant="outlined"
          label={t('desktop.toolbar.clipboardOff')}
          title={t('desktop.clipboard.off')}
        />
      ) : null}
      {connected ? (
        <Button
          size="small"
          startIcon={fullscreen.active ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
          onClick={fullscreen.toggle}
        >
          {fullscreen.active ? t('desktop.toolbar.exitFullScreen') : t('desktop.toolbar.fullScreen')}
        </Button>
      ) : null}
      {connected && props.onLeave ? (
        <Button size="small" color="error" variant="outlined" startIcon={<LogoutOutlined />} onClick={props.onLeave}>
          {props.watching ? t('desktop.toolbar.stopWatching') : t('desktop.toolbar.disconnect')}
        </Button>
      ) : null}
    </Box>
  );
}
