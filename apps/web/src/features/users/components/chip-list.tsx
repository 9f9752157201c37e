import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';

const SHOWN = 3;

/**
 * Names as small chips that wrap onto further lines, a long name wrapping inside its chip (cut at
 * the cell's edge, "Database administrators" read "Database adm…"); past three, a "+n" chip whose
 * tooltip names the rest.
 */
export function ChipList({
  names,
  emptyLabel,
  color,
  label,
}: {
  names: readonly string[];
  emptyLabel: string;
  color?: 'primary';
  /** What the names are (roles, groups), for a screen reader where no column header says it. */
  label?: string;
}) {
  if (names.length === 0) {
    return (
      <Typography variant="body2" component="span" sx={{ color: 'text.secondary' }}>
        {emptyLabel}
      </Typography>
    );
  }
  const rest = names.slice(SHOWN);
  return (
    <Box
      component="span"
      role={label ? 'group' : undefined}
      aria-label={label}
      sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', alignItems: 'center', minWidth: 0 }}
    >
      {names.slice(0, SHOWN).map((name) => (
        <Chip
          key={name}
          label={name}
          title={name}
          size="small"
          variant="outlined"
          color={color ?? 'default'}
          sx={{
            maxWidth: '100%',
            height: 'auto',
            minHeight: 24,
            '& .MuiChip-label': { whiteSpace: 'normal', overflowWrap: 'anywhere', py: '1px', lineHeight: 1.35 },
          }}
        />
      ))}
      {rest.length > 0 ? (
        <Tooltip title={rest.join(', ')}>
          <Chip label={`+${String(rest.length)}`} size="small" aria-label={rest.join(', ')} tabIndex={0} />
        </Tooltip>
      ) : null}
    </Box>
  );
}
