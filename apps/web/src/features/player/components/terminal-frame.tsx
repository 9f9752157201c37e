import Box from '@mui/material/Box';

/**
 * Where a terminal is drawn: always left to right (terminal output has its own direction, also in
 * Arabic), on the terminal's dark background; the terminal's font is fitted to it (TerminalHost).
 * A terminal at actual size pans inside it (`pans`): then it takes the keyboard's focus, and its
 * arrows scroll it.
 */
export function TerminalFrame({
  frameRef,
  label,
  testId,
  pans = false,
}: {
  frameRef: (element: HTMLElement | null) => void;
  label: string;
  testId: string;
  pans?: boolean;
}) {
  return (
    <Box
      ref={frameRef}
      dir="ltr"
      role="region"
      aria-label={label}
      data-testid={testId}
      data-pans={pans || undefined}
      tabIndex={pans ? 0 : undefined}
      sx={{
        bgcolor: '#101014',
        borderRadius: 1,
        p: 1,
        overflow: 'auto',
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
        minHeight: 120,
      }}
    />
  );
}
