import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

/** One byte range of a file, from an HTTP Range header (RFC 9110 §14), or undefined for all. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: answer the whole file, as the RFC allows.
  if (!match) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start >= size || end < start) {
    throw new HttpError(416, `The range ${header} lies outside the file (${size} bytes).`);
  }
  return { start, end };
}

/**
 * `attachment` with a file name that is always a valid header (RFC 6266): an ASCII fallback with
 * anything but letters, digits, dot, hyphen and underscore replaced, and the exact name as
 * filename*=UTF-8'' percent-encoding (RFC 8187). No byte of the name can end the header.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200) || 'download';
  let encoded: string;
  try {
    encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    encoded = fallback; // a lone surrogate cannot be encoded: the fallback says enough
  }
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends a file, or the range asked for, with Accept-Ranges, Content-Range and 206. `size` may be
 * less than the file's length (a live recording is served up to its last complete chunk).
 */
export function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: {
    path: string;
    size: number;
    type: string;
    downloadName?: string;
    /** Opens bytes start..end elsewhere than the local file (object storage, ADR 0008). */
    open?: (start: number, end: number) => Promise<Readable>;
  },
): FastifyReply | Promise<FastifyReply> {
  let range: { start: number; end: number } | undefined;
  try {
    range = parseRange(request.headers.range, file.size);
  } catch (error) {
    reply.header('content-range', `bytes */${file.size}`);
    throw error;
  }
  reply.header('accept-ranges', 'bytes').type(file.type);
  if (file.downloadName) reply.header('content-disposition', contentDisposition(file.downloadName));
  if (file.size === 0) return reply.header('content-length', 0).send('');
  const { start, end } = range ?? { start: 0, end: file.size - 1 };
  if (range) reply.status(206).header('content-range', `bytes ${start}-${end}/${file.size}`);
  reply.header('content-length', end - start + 1);
  if (file.open) return file.open(start, end).then((stream) => reply.send(stream));
  return reply.send(fs.createReadStream(file.path, { start, end }));
}
