import { useState } from 'react';
import type { TunnelItem, TunnelType } from '../api/list-tunnels';
import { AssignAgentsDialog } from './assign-agents-dialog';
import { AssignUsersDialog } from './assign-users-dialog';
import { DeleteTunnelDialog } from './delete-tunnel-dialog';
import { PublicKeyDialog } from './public-key-dialog';
import type { TunnelAction } from './tunnel-columns';
import { TunnelFormDialog } from './tunnel-form-dialog';

/** Props of the tunnels screen's dialogs. */
export interface TunnelDialogsProps {
  creating: boolean;
  /** The type a new definition starts with: the tab's. */
  createType: TunnelType;
  onCreateClose: () => void;
  /** The row button pressed, by definition id. */
  action: { action: TunnelAction; id: string } | null;
  /** Every definition, so an open dialog follows the list as it refreshes. */
  all: readonly TunnelItem[];
  onActionClose: () => void;
}

/** Create, edit, delete, assign and public-key dialogs; a definition that goes away closes its dialog. */
export function TunnelDialogs(props: TunnelDialogsProps) {
  const { action, onActionClose } = props;
  const [newKey, setNewKey] = useState<TunnelItem | null>(null);
  const item = action ? (props.all.find((entry) => entry.id === action.id) ?? null) : null;
  const on = (which: TunnelAction) => (action?.action === which ? item : null);
  return (
    <>
      <TunnelFormDialog
        open={props.creating}
        editing={null}
        defaultType={props.createType}
        onClose={props.onCreateClose}
        onNewKey={setNewKey}
      />
      <TunnelFormDialog
        open={on('edit') !== null}
        editing={on('edit')}
        defaultType={props.createType}
        onClose={onActionClose}
        onNewKey={setNewKey}
      />
      <DeleteTunnelDialog item={on('delete')} onClose={onActionClose} />
      <AssignUsersDialog item={on('users')} onClose={onActionClose} />
      <AssignAgentsDialog item={on('agents')} onClose={onActionClose} />
      <PublicKeyDialog
        item={newKey ?? on('publicKey')}
        isNew={newKey !== null}
        onClose={() => {
          setNewKey(null);
          onActionClose();
        }}
      />
    </>
  );
}
