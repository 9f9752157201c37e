import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchField } from '../../../components/search-field';
import type { LevelFilter } from '../model/log-lines';

const FILTERS: readonly LevelFilter[] = ['all', 'debug', 'info', 'warn', 'error'];

/** What the log toolbar shows and changes. */
export interface LogToolbarProps {
  search: string;
  onSearch: (value: string) => void;
  searchRef: Ref<HTMLInputElement>;
  level: LevelFilter;
  onLevel: (value: LevelFilter) => void;
  raw: boolean;
  onRaw: (value: boolean) => void;
  follow: boolean;
  onFollow: (value: boolean) => void;
  /** False when no line is shown: nothing to copy or download. */
  canExport: boolean;
  onCopy: () => void;
  onDownload: () => void;
}

/** Search, level, raw and follow switches, copy and download; wraps onto more rows on narrow screens. */
export function LogToolbar(props: LogToolbarProps) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 1.5 }}>
      <SearchField
        label={t('systemStatus.logs.search')}
        value={props.search}
        inputRef={props.searchRef}
        onChange={props.onSearch}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && props.search) {
            event.stopPropagation();
            props.onSearch('');
          }
        }}
        sx={{ flex: { xs: '1 1 100%', sm: '1 1 220px' }, maxWidth: { sm: 360 } }}
        slotProps={{ htmlInput: { 'aria-keyshortcuts': '/' } }}
      />
      <TextField
        select
        size="small"
        label={t('systemStatus.logs.level')}
        value={props.level}
        onChange={(event) => props.onLevel(event.target.value as LevelFilter)}
        sx={{ flex: { xs: '1 1 160px', sm: '0 0 200px' } }}
      >
        {FILTERS.map((filter) => (
          <MenuItem key={filter} value={filter}>
            {t(`systemStatus.logs.levels.${filter}`)}
          </MenuItem>
        ))}
      </TextField>
      <Box
        sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.5, marginInlineStart: { md: 'auto' } }}
      >
        <Tooltip title={t('systemStatus.logs.followHint')} describeChild>
          <FormControlLabel
            control={<Switch checked={props.follow} onChange={(event) => props.onFollow(event.target.checked)} />}
            label={t('systemStatus.logs.follow')}
          />
        </Tooltip>
        <FormControlLabel
          control={<Switch checked={props.raw} onChange={(event) => props.onRaw(event.target.checked)} />}
          label={t('systemStatus.logs.raw')}
        />
        <Tooltip title={t('systemStatus.logs.copy')}>
          <span>
            <IconButton aria-label={t('systemStatus.logs.copy')} onClick={props.onCopy} disabled={!props.canExport}>
              <ContentCopyOutlined />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t('systemStatus.logs.download')}>
          <span>
            <IconButton
              aria-label={t('systemStatus.logs.download')}
              onClick={props.onDownload}
              disabled={!props.canExport}
            >
              <DownloadOutlined />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
    </Box>
  );
}
