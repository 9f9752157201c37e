import type { ResponseOf, Routes } from '@gatehouse/contracts';
import type { MockRecording } from '../types';

type Transfer = ResponseOf<Routes['listRecordingTransfers']>['transfers'][number];

/** A stable fake SHA-256 (hex) for a recording's n-th file: not a real digest, mock data only. */
function fakeSha(id: string, n: number): string {
  const hex = id.replace(/-/g, '');
  return (hex + hex).slice(n, n + 64).padEnd(64, '0');
}

/**
 * What an sftp or scp session of the mock data transferred: derived from the recording alone (no
 * random draw), so the data stays as seeded. Other sessions transferred nothing.
 */
export function transfersOf(row: MockRecording): Transfer[] {
  if (row.kind !== 'sftp' && row.kind !== 'scp') return [];
  const at = (t: number) => new Date(Date.parse(row.started_on) + t * 1000).toISOString();
  const base = { target: null, note: null };
  if (row.kind === 'scp') {
    const path = (row.command ?? '').split(' ').at(-1) ?? '/tmp/file';
    return [
      {
        ...base,
        id: `${row.id}-1`,
        t: 2.5,
        protocol: 'scp',
        op: row.command?.includes(' -f ') ? 'download' : 'upload',
        path,
        direction: row.command?.includes(' -f ') ? 'download' : 'upload',
        bytes: 18_874_368,
        sha256: fakeSha(row.id, 0),
        outcome: 'ok',
        created_on: at(2.5),
      },
    ];
  }
  const home = `/home/${row.login}`;
  return [
    { ...base, id: `${row.id}-1`, t: 3.2, protocol: 'sftp', op: 'mkdir', path: `${home}/releases`, direction: null, bytes: 0, sha256: null, outcome: 'ok', created_on: at(3.2) },
    { ...base, id: `${row.id}-2`, t: 7.9, protocol: 'sftp', op: 'write', path: `${home}/releases/app-2.4.1.tar.gz`, direction: 'upload', bytes: 48_213_771, sha256: fakeSha(row.id, 1), outcome: 'ok', created_on: at(7.9) },
    { ...base, id: `${row.id}-3`, t: 12.4, protocol: 'sftp', op: 'read', path: '/var/log/nginx/error.log', direction: 'download', bytes: 734_002, sha256: fakeSha(row.id, 2), outcome: 'ok', created_on: at(12.4) },
    { ...base, id: `${row.id}-4`, t: 15.1, protocol: 'sftp', op: 'rename', path: `${home}/releases/app-2.4.1.tar.gz`, target: `${home}/releases/current.tar.gz`, direction: null, bytes: 0, sha256: null, outcome: 'ok', created_on: at(15.1) },
    { ...base, id: `${row.id}-5`, t: 18.6, protocol: 'sftp', op: 'read', path: '/etc/shadow', direction: 'download', bytes: 0, sha256: null, outcome: 'Permission denied', note: 'The host refused to open the file.', created_on: at(18.6) },
  ];
}
