import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MemberList } from '../../../components/member-list';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useAddChildGroups } from '../api/add-child-groups';
import type { GroupItem } from '../api/list-groups';
import { useRemoveChildGroup } from '../api/remove-child-group';
import { nestingChoices } from './group-tree';

/** Groups nested in this one; their members belong to it too. A cycle is refused by the server. */
export function GroupChildrenTab(props: { group: GroupItem; groups: readonly GroupItem[]; canModify: boolean }) {
  const { group, canModify } = props;
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const add = useAddChildGroups();
  const remove = useRemoveChildGroup();
  const [picked, setPicked] = useState<string[]>([]);

  const nest = () =>
    add.mutate(
      { group: group.name, children: picked },
      {
        onSuccess: () => {
          setPicked([]);
          snackbar.success(t('groups.nested'));
        },
        // The server's 409 names the cycle the nesting would make.
        onError: (error) => snackbar.error(errorText(error)),
      },
    );
  const unnest = (child: string) =>
    remove.mutate(
      { group: group.name, child },
      {
        onSuccess: () => snackbar.success(t('groups.unnested')),
        onError: (error) => snackbar.error(errorText(error)),
      },
    );

  return (
    <Stack spacing={2}>
      {canModify ? (
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <Autocomplete
            multiple
            filterSelectedOptions
            options={nestingChoices(props.groups, group.name)}
            value={picked}
            onChange={(_event, names) => setPicked(names)}
            noOptionsText={t('groups.children.noChoices')}
            renderInput={(params) => <TextField {...params} label={t('groups.children.toAdd')} />}
            sx={{ flex: 1, minWidth: 240 }}
          />
          <Button
            variant="contained"
            onClick={nest}
            disabled={picked.length === 0 || add.isPending}
            loading={add.isPending}
            sx={{ mt: 1 }}
          >
            {t('groups.children.add')}
          </Button>
        </Box>
      ) : null}
      <MemberList
        label={t('groups.children.listLabel', { name: group.name })}
        searchLabel={t('groups.children.search')}
        items={group.groups.map((name) => ({ id: name, primary: name }))}
        emptyText={canModify ? t('groups.children.emptyEditor') : t('groups.children.empty')}
        onRemove={canModify ? (item) => unnest(item.id) : undefined}
        removeLabel={(item) => t('groups.children.remove', { child: item.id, name: group.name })}
        busy={remove.isPending}
      />
    </Stack>
  );
}
