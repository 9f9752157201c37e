import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { ReactNode } from 'react';

/**
 * A row told in one cell (a data table's summary, below lg): its title, then a line per fact in
 * quieter type. Long words wrap rather than clip.
 */
export function SummaryCell({ title, lines }: { title: ReactNode; lines: readonly ReactNode[] }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, minWidth: 0, width: '100%', py: 0.5 }}>
      <Box sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>{title}</Box>
      {lines.map((line, index) => (
        <Box
          // The lines are fixed per table; their order is their identity.
          key={index}
          sx={{
            color: 'text.secondary',
            fontSize: '0.8rem',
            minWidth: 0,
            overflowWrap: 'anywhere',
            // A cell's own text (such as the hosts' RDP video line) takes the line's size, as the others do.
            '& .MuiTypography-body2': { fontSize: 'inherit' },
          }}
        >
          {line}
        </Box>
      ))}
    </Box>
  );
}

/**
 * A summary's line for a value that alone would not say what it is ("Never" alone: never what?):
 * the column's name before it, "Last seen: Never", as the users summary names its second factors.
 */
export function LabelledLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 0.5 }}>
      <span>{`${label}: `}</span>
      {children}
    </Box>
  );
}

/** A row's name as a link that opens it (in its column, and as a summary's title). */
export function OpenLink<R extends { name: string }>({
  row,
  tabIndex,
  onOpen,
}: {
  row: R;
  tabIndex: 0 | -1;
  onOpen: (row: R) => void;
}) {
  return (
    <Link
      component="button"
      type="button"
      tabIndex={tabIndex}
      onClick={() => onOpen(row)}
      sx={{ fontWeight: 500, textAlign: 'start', overflowWrap: 'anywhere' }}
    >
      {row.name}
    </Link>
  );
}
