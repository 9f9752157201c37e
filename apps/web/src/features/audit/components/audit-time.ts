import { parseServerTime } from '../../../lib/dates';

/** An entry's time with seconds, in the console's language and the browser's time zone. */
export function formatAuditTime(value: string): string {
  return parseServerTime(value).format('L LTS');
}
