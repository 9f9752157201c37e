import type { ResponseOf, Routes } from '@gatehouse/contracts';
import type { TFunction } from 'i18next';
import { formatBytes, formatCount } from '../lib/format';

type Integrity = ResponseOf<Routes['verifyRecording']>;

/**
 * What a verification found, as a sentence in the console language, built from the answer's
 * fields (status, chunks, bytes checked). The server's own message is English and technical: the
 * screens keep it as the tooltip, for whoever investigates, and never show it as the text.
 */
export function integrityDetail(
  result: Pick<Integrity, 'status' | 'chunks' | 'checked_bytes'>,
  t: TFunction,
  language: string,
): string {
  return t(`integrityDetail.${result.status}`, {
    chunks: formatCount(result.chunks, language),
    size: formatBytes(result.checked_bytes, t, language),
  });
}
