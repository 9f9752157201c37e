import Box from '@mui/material/Box';

/**
 * Where a terminal is drawn: always left to right (terminal output has its own direction, also in
 * Arabic), on the terminal's dark background, scrolling sideways if the font cannot shrink enough.
 */
export function TerminalFrame({
  frameRef,
  label,
  testId,
}: {
  frameRef: (element: HTMLElement | null) => void;
  label: string;
  testId: string;
}) {
  return (
    <Box
      ref={frameRef}
      dir="ltr"
      role="region"
      aria-label={label}
      data-testid={testId}
      sx={{
        bgcolor: '#101014',
        borderRadius: 1,
        p: 1,
        overflowX: 'auto',
        minHeight: 120,
      }}
    />
  );
}
