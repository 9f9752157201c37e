import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId } from 'react';

/** The Gatehouse mark: a shield with a gate. Decorative; pair it with the product name. */
export function Logo({ size = 32, sx }: { size?: number; sx?: SxProps<Theme> }) {
  const gradient = useId();
  return (
    <Box component="svg" viewBox="0 0 32 32" width={size} height={size} aria-hidden focusable="false" sx={sx}>
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#2098F7" />
          <stop offset="1" stopColor="#0078D7" />
        </linearGradient>
      </defs>
      <path d="M16 2 4 6.5v8.3C4 22.4 9.1 28.6 16 30c6.9-1.4 12-7.6 12-15.2V6.5L16 2z" fill={`url(#${gradient})`} />
      <path d="M11 23v-7a5 5 0 0 1 10 0v7h-3v-7a2 2 0 0 0-4 0v7z" fill="#fff" />
    </Box>
  );
}
