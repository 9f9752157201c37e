import { sql as init } from './0001-init.js';
import { sql as identity } from './0002-identity.js';
import { sql as agentsTunnels } from './0003-agents-tunnels.js';
import { sql as recordings } from './0004-recordings.js';
import { sql as recordingsList } from './0005-recordings-list.js';
import { sql as recordingVideo } from './0006-recording-video.js';
import { sql as recordingsTextSearch } from './0007-recordings-text-search.js';
import { sql as sso } from './0008-sso.js';
import { sql as recordingForwards } from './0011-recording-forwards.js';
import { sql as mailOutbox } from './0012-mail-outbox.js';
import { sql as accountTrust } from './0013-account-trust.js';
import { sql as agentTrust } from './0014-agent-trust.js';
import { sql as liveRights } from './0015-live-rights.js';
import { sql as openPermission } from './0016-open-permission.js';
import { sql as serverInstances } from './0017-server-instances.js';
import { sql as recordingIntegrity } from './0018-recording-integrity.js';
import { sql as fileTransfers } from './0019-file-transfers.js';
import { sql as recordingText } from './0020-recording-text.js';
import { sql as legalHold } from './0021-legal-hold.js';
import { sql as instanceRelay } from './0022-instance-relay.js';
import { sql as objectStorage } from './0023-object-storage.js';
import { sql as captureStatus } from './0024-capture-status.js';
import { sql as videoEvidence } from './0025-video-evidence.js';
import { sql as rdpClipboard } from './0026-rdp-clipboard.js';
import { sql as recordingStarts } from './0027-recording-starts.js';
import { sql as auditScreen } from './0028-audit-screen.js';
import { sql as twoFactor } from './0029-two-factor.js';
import { sql as textIndexPending } from './0030-text-index-pending.js';

/** Every migration, in order. Append only: a landed migration is never edited. */
export const migrations: readonly { id: string; sql: string }[] = [
  { id: '0001-init', sql: init },
  { id: '0002-identity', sql: identity },
  { id: '0003-agents-tunnels', sql: agentsTunnels },
  { id: '0004-recordings', sql: recordings },
  { id: '0005-recordings-list', sql: recordingsList },
  { id: '0006-recording-video', sql: recordingVideo },
  { id: '0007-recordings-text-search', sql: recordingsTextSearch },
  { id: '0008-sso', sql: sso },
  { id: '0011-recording-forwards', sql: recordingForwards },
  { id: '0012-mail-outbox', sql: mailOutbox },
  { id: '0013-account-trust', sql: accountTrust },
  { id: '0014-agent-trust', sql: agentTrust },
  { id: '0015-live-rights', sql: liveRights },
  { id: '0016-open-permission', sql: openPermission },
  { id: '0017-server-instances', sql: serverInstances },
  { id: '0018-recording-integrity', sql: recordingIntegrity },
  { id: '0019-file-transfers', sql: fileTransfers },
  { id: '0020-recording-text', sql: recordingText },
  { id: '0021-legal-hold', sql: legalHold },
  { id: '0022-instance-relay', sql: instanceRelay },
  { id: '0023-object-storage', sql: objectStorage },
  { id: '0024-capture-status', sql: captureStatus },
  { id: '0025-video-evidence', sql: videoEvidence },
  { id: '0026-rdp-clipboard', sql: rdpClipboard },
  { id: '0027-recording-starts', sql: recordingStarts },
  { id: '0028-audit-screen', sql: auditScreen },
  { id: '0029-two-factor', sql: twoFactor },
  { id: '0030-text-index-pending', sql: textIndexPending },
];
