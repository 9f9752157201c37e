import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';

const SHOWN = 3;

/**
 * Names as small chips that wrap onto further lines (cut at the cell's edge, a group read "O…");
 * past three, a "+n" chip whose tooltip names the rest.
 */
export function ChipList({
  names,
  emptyLabel,
  color,
}: {
  names: readonly string[];
  emptyLabel: string;
  color?: 'primary';
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
    <Box component="span" sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', alignItems: 'center', minWidth: 0 }}>
      {names.slice(0, SHOWN).map((name) => (
        <Chip
          key={name}
          label={name}
          title={name}
          size="small"
          variant="outlined"
          color={color ?? 'default'}
          sx={{ maxWidth: '100%' }}
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
