import AddOutlined from '@mui/icons-material/AddOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table';
import { EmptyState } from '../../../components/data-table/table-states';
import { PageHeader } from '../../../components/page-header';
import { isAdmin } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import type { GeneratedKey } from '../api/create-key';
import type { KeyItem } from '../api/list-keys';
import { useKeys } from '../api/list-keys';
import { DeleteKeyDialog } from './delete-key-dialog';
import { GenerateKeyDialog } from './generate-key-dialog';
import { useKeyColumns, useKeySummary } from './key-columns';
import { KeySecretDialog } from './key-secret-dialog';

/** Columns that go first where the list is narrow: when the key was made, then by whom. */
const KEY_OPTIONAL = ['created', 'created_by'];

const searchTexts = (key: KeyItem) => [key.description, key.created_by ?? ''];
const keyId = (key: KeyItem) => key.uuid;

/**
 * /registrationKeys: the keys agents register with. Listing, generating and deleting are for
 * holders of the admin role (spec §6); others see why the list is not there.
 */
export function RegistrationKeysPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const admin = isAdmin(user);
  const keys = useKeys(admin);
  const [generating, setGenerating] = useState(false);
  const [generated, setGenerated] = useState<GeneratedKey | null>(null);
  const [deleting, setDeleting] = useState<KeyItem | null>(null);
  const onDelete = useCallback((key: KeyItem) => setDeleting(key), []);
  const columns = useKeyColumns(onDelete);
  const summary = useKeySummary();

  if (!admin) {
    return (
      <Box>
        <PageHeader title={t('pages.keys')} subtitle={t('registrationKeys.subtitle')} />
        <EmptyState
          icon={LockOutlined}
          title={t('registrationKeys.adminOnly.title')}
          hint={t('registrationKeys.adminOnly.text')}
        />
      </Box>
    );
  }

  const generateButton = (
    <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setGenerating(true)}>
      {t('registrationKeys.generate')}
    </Button>
  );

  return (
    <Box>
      <PageHeader title={t('pages.keys')} subtitle={t('registrationKeys.subtitle')} actions={generateButton} />
      <DataTable<KeyItem>
        label={t('pages.keys')}
        searchLabel={t('registrationKeys.search')}
        rows={keys.data?.keys}
        columns={columns}
        summary={summary}
        optional={KEY_OPTIONAL}
        getRowId={keyId}
        searchTexts={searchTexts}
        loading={keys.isLoading}
        error={keys.error}
        onRetry={() => void keys.refetch()}
        empty={
          <EmptyState
            icon={VpnKeyOutlined}
            title={t('registrationKeys.empty.title')}
            hint={t('registrationKeys.empty.hint')}
            action={generateButton}
          />
        }
      />
      <GenerateKeyDialog open={generating} onClose={() => setGenerating(false)} onGenerated={setGenerated} />
      <KeySecretDialog generated={generated} onClose={() => setGenerated(null)} />
      <DeleteKeyDialog item={deleting} onClose={() => setDeleting(null)} />
    </Box>
  );
}
