import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import type { ReactNode, RefObject } from 'react';
import { useRef } from 'react';
import type { DesktopToolbarProps } from './desktop-toolbar';
import { DesktopToolbar } from './desktop-toolbar';
import { useAvailableHeight, useFullscreen } from './use-stage';

/** Props of the desktop's frame. */
export interface DesktopStageProps {
  toolbar: Omit<DesktopToolbarProps, 'fullscreen' | 'connected'>;
  connected: boolean;
  /** The element noVNC draws into; its size is the size asked of the server. */
  targetRef: RefObject<HTMLDivElement | null>;
  /** The accessible name of the desktop area. */
  label: string;
  /** The form, progress or end panel over the area; null while the desktop shows. */
  overlay: ReactNode;
}

/**
 * The toolbar and, below it, the area the desktop fills down to the window's bottom (all of the
 * screen in full screen). The area stays left to right in every language: it is a picture of
 * another computer's screen.
 */
export function DesktopStage({ toolbar, connected, targetRef, label, overlay }: DesktopStageProps) {
  const stageRef = useRef<HTMLDivElement>(null);
  const height = useAvailableHeight(stageRef);
  const fullscreen = useFullscreen(stageRef);
  // The panels over the area read in the console's direction.
  const { direction } = useTheme();
  return (
    <Box
      ref={stageRef}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && fullscreen.active) fullscreen.toggle();
      }}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        height: fullscreen.active ? '100vh' : height,
        border: fullscreen.active ? 0 : 1,
        borderColor: 'divider',
        borderRadius: fullscreen.active ? 0 : 1,
        overflow: 'hidden',
        bgcolor: 'background.default',
      }}
    >
      <DesktopToolbar {...toolbar} connected={connected} fullscreen={fullscreen} />
      <Box
        dir="ltr"
        role="region"
        aria-label={label}
        sx={{
          position: 'relative',
          flex: 1,
          minHeight: 0,
          bgcolor: connected ? '#1b1b1f' : 'action.hover',
        }}
      >
        <Box ref={targetRef} data-testid="desktop-target" sx={{ position: 'absolute', inset: 0 }} />
        {overlay ? (
          <Box
            dir={direction}
            sx={{
              position: 'absolute',
              inset: 0,
              overflow: 'auto',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              p: 2,
            }}
          >
            {overlay}
          </Box>
        ) : null}
      </Box>
    </Box>
  );
}
