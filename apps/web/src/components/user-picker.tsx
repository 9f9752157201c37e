import type { ResponseOf, Routes } from '@gatehouse/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiCall } from '../lib/api-client';
import { API } from '../lib/api-routes';
import { useDebouncedValue } from './use-debounced-value';

/** A user as the picker offers them. */
export type PickedUser = ResponseOf<Routes['listUsers']>['users'][number];

/** At most this many suggestions per search (GET api/user?q=…&limit=20). */
export const USER_SEARCH_LIMIT = 20;

/** Props of the user picker. */
export interface UserPickerProps {
  label: string;
  value: PickedUser[];
  onChange: (users: PickedUser[]) => void;
  /** Emails not to offer, such as the current members. */
  exclude?: readonly string[];
  disabled?: boolean;
}

/** Chooses users by typing part of an email or name; the server searches and answers 20 at most. */
export function UserPicker({ label, value, onChange, exclude = [], disabled }: UserPickerProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const q = useDebouncedValue(input.trim(), 250);
  const search = useQuery({
    queryKey: ['shared', 'user-search', q],
    queryFn: ({ signal }) =>
      apiCall(API.listUsers, { query: { q: q || undefined, limit: String(USER_SEARCH_LIMIT) }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options = (search.data?.users ?? []).filter((user) => !exclude.includes(user.email));

  return (
    <Autocomplete
      multiple
      filterSelectedOptions
      disabled={disabled}
      options={options}
      value={value}
      onChange={(_event, users) => onChange(users)}
      inputValue={input}
      onInputChange={(_event, text) => setInput(text)}
      filterOptions={(all) => all}
      getOptionLabel={(user) => user.email}
      isOptionEqualToValue={(a, b) => a.email === b.email}
      loading={search.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={search.isError ? t('message.somethingWentWrong') : t('shared.userPicker.noUsers')}
      renderOption={(props, user) => {
        const { key, ...rest } = props;
        return (
          <Box component="li" key={key} {...rest} sx={{ flexDirection: 'column', alignItems: 'flex-start !important' }}>
            <Typography variant="body2">{user.name ?? user.email}</Typography>
            {user.name ? (
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                {user.email}
              </Typography>
            ) : null}
          </Box>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={value.length === 0 ? t('shared.userPicker.placeholder') : ''}
        />
      )}
      sx={{ flex: 1, minWidth: 240 }}
    />
  );
}
