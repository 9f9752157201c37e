import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';

/** Lines kept per component for the status screen. */
const KEPT_LINES = 500;

/**
 * The recent log lines of this process, by component (the `component` binding of a child
 * logger; 'api' when none). Each instance keeps its own: they are that instance's logs.
 */
export class LogBook extends Writable {
  private readonly lines = new Map<string, string[]>();

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      let component = 'api';
      try {
        const parsed = JSON.parse(line) as { component?: unknown };
        if (typeof parsed.component === 'string') component = parsed.component;
      } catch {
        // Not JSON: keep it under api.
      }
      let list = this.lines.get(component);
      if (!list) this.lines.set(component, (list = []));
      list.push(line);
      if (list.length > KEPT_LINES) list.splice(0, list.length - KEPT_LINES);
    }
    done();
  }

  /** The latest lines of a component, oldest first. */
  recent(component: string, limit = KEPT_LINES): string[] {
    return (this.lines.get(component) ?? []).slice(-limit);
  }
}

/** Structured JSON logs with levels; tokens and passwords are never written. */
export function createLogger(level: string, book?: LogBook): FastifyBaseLogger {
  const options = {
    level,
    redact: {
      paths: [
        'req.headers["authentication-token"]',
        'req.headers["x-auth-token"]',
        'req.headers.authorization',
        '*.password',
      ],
      censor: '[redacted]',
    },
  };
  if (!book) return pino(options);
  return pino(
    options,
    pino.multistream([
      { stream: process.stdout, level: level as pino.Level },
      { stream: book, level: level as pino.Level },
    ]),
  );
}
