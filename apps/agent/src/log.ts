import type { HostConfig } from '@gatehouse/contracts';

const ORDER = { DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40 } as const;
type Level = keyof typeof ORDER;

/** Lines on stderr at the host config's log level; `notice` lines always show. */
export class Log {
  private threshold: number = ORDER.ERROR;

  /** Follows the host config's loglevel. */
  setLevel(level: HostConfig['loglevel']): void {
    this.threshold = ORDER[level];
  }

  private write(level: Level | 'NOTICE', message: string): void {
    process.stderr.write(`${new Date().toISOString()} ${level} ${message}\n`);
  }

  debug(message: string): void {
    if (ORDER.DEBUG >= this.threshold) this.write('DEBUG', message);
  }
  info(message: string): void {
    if (ORDER.INFO >= this.threshold) this.write('INFO', message);
  }
  warn(message: string): void {
    if (ORDER.WARNING >= this.threshold) this.write('WARNING', message);
  }
  error(message: string): void {
    this.write('ERROR', message);
  }
  /** Lifecycle events an operator always wants to see. */
  notice(message: string): void {
    this.write('NOTICE', message);
  }
}
