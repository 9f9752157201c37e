import RemoveCircleOutlineOutlined from '@mui/icons-material/RemoveCircleOutlineOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterRows } from './data-table/search';

/** One entry of a member list. */
export interface MemberItem {
  /** What removal is called with (an email, an id, a name). */
  id: string;
  primary: string;
  secondary?: string;
}

/** Props of a searchable list of members. */
export interface MemberListProps {
  /** Accessible name of the list, such as "Members of ops". */
  label: string;
  searchLabel: string;
  items: readonly MemberItem[];
  /** Shown when there are no members at all: say how to add one. */
  emptyText: string;
  /** Makes each entry removable; leave out for readers. */
  onRemove?: (item: MemberItem) => void;
  /** Label of an entry's remove button, naming it. */
  removeLabel: (item: MemberItem) => string;
  /** Disables the remove buttons while a change runs. */
  busy?: boolean;
}

/** Members with a search box and, for those allowed, a labelled remove button on each. */
export function MemberList(props: MemberListProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const shown = filterRows(props.items, query, (item) => [item.primary, item.secondary ?? '']);
  if (props.items.length === 0) {
    return <Typography sx={{ color: 'text.secondary', py: 2 }}>{props.emptyText}</Typography>;
  }
  return (
    <Box>
      <TextField
        type="search"
        size="small"
        fullWidth
        label={props.searchLabel}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchOutlined fontSize="small" aria-hidden />
              </InputAdornment>
            ),
          },
        }}
      />
      <List dense aria-label={props.label} sx={{ maxHeight: 320, overflowY: 'auto' }}>
        {shown.map((item) => (
          <ListItem
            key={item.id}
            divider
            secondaryAction={
              props.onRemove ? (
                <Tooltip title={props.removeLabel(item)}>
                  <span>
                    <IconButton
                      edge="end"
                      aria-label={props.removeLabel(item)}
                      disabled={props.busy}
                      onClick={() => props.onRemove?.(item)}
                    >
                      <RemoveCircleOutlineOutlined />
                    </IconButton>
                  </span>
                </Tooltip>
              ) : null
            }
          >
            <ListItemText primary={item.primary} secondary={item.secondary} />
          </ListItem>
        ))}
      </List>
      {shown.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', py: 1 }}>{t('common.noResults')}</Typography>
      ) : null}
    </Box>
  );
}
