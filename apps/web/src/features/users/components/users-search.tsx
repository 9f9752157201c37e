import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SearchField } from '../../../components/search-field';

/** The search box above the list (email or name, searched by the server) and the match count. */
export function UsersSearch(props: { value: string; onChange: (value: string) => void; total: number | undefined }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
      <SearchField
        label={t('users.search')}
        placeholder={t('users.searchPlaceholder')}
        value={props.value}
        onChange={props.onChange}
        sx={{ width: { xs: '100%', sm: 360 } }}
      />
      {props.total !== undefined ? (
        <Typography variant="body2" role="status" sx={{ color: 'text.secondary' }}>
          {t('users.total', { total: props.total })}
        </Typography>
      ) : null}
    </Box>
  );
}
