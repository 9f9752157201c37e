import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';

/**
 * A list's filter bar (sessions, audit): a search landmark whose fields wrap onto further rows,
 * and a Clear filters button while any filter is set.
 */
export function FilterBar({
  label,
  filtered,
  onClear,
  clearLabel,
  children,
}: {
  /** The landmark's name ("Session filters"). */
  label: string;
  filtered: boolean;
  onClear: () => void;
  clearLabel: string;
  children: ReactNode;
}) {
  return (
    <Box
      role="search"
      aria-label={label}
      sx={{ display: 'flex', gap: 1.5, mb: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}
    >
      {children}
      {filtered ? (
        <Button startIcon={<FilterAltOffOutlined />} onClick={onClear} sx={{ mt: 0.25, flexShrink: 0 }}>
          {clearLabel}
        </Button>
      ) : null}
    </Box>
  );
}
