import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';

/** Structured JSON logs with levels; tokens and passwords are never written. */
export function createLogger(level: string): FastifyBaseLogger {
  return pino({
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
  });
}
