import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../limits.js';
import { type PERMISSIONS, isPermission } from '../permissions.js';

/** An email address, trimmed and lower-cased. */
export const Email = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .max(MAX_EMAIL_LENGTH, 'Email is too long')
  .pipe(z.email({ error: 'The Email you entered is not a valid format!' }));

/** A new password: spec §5 length rule. */
export const NewPassword = z
  .string({ error: 'Password is required' })
  .min(MIN_PASSWORD_LENGTH, `Passwords need to be at least ${MIN_PASSWORD_LENGTH} characters long`)
  .max(MAX_PASSWORD_LENGTH, 'Password is too long');

/** A display name: optional, trimmed, no control characters. */
export const DisplayName = z
  .string()
  .trim()
  .max(100, 'Name is too long')
  .regex(/^[^\p{Cc}]*$/u, 'Name must not contain control characters');

/** A name that appears in URL paths (roles, groups): no slash, no control characters. */
export const PathName = (what: string) =>
  z
    .string({ error: `${what} name is required` })
    .trim()
    .min(1, `${what} name is required`)
    .max(64, `${what} name is too long (64 characters at most)`)
    .regex(/^[^/\\\p{Cc}]+$/u, `${what} name must not contain slashes or control characters`);

/**
 * Permissions as the spec sends them: comma-joined text, or a list. Unknown permissions are
 * refused by name.
 */
export const PermissionList = z
  .union([z.string(), z.array(z.string())], { error: 'permissions must be a comma-joined text or a list' })
  .transform((value) =>
    (Array.isArray(value) ? value : value.split(',')).map((p) => p.trim()).filter((p) => p.length > 0),
  )
  .superRefine((list, ctx) => {
    const unknown = list.filter((p) => !isPermission(p));
    if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: `Unknown permission: ${unknown.join(', ')}` });
  })
  .transform((list) => [...new Set(list)] as (typeof PERMISSIONS)[number][]);

/** Paging, sorting and search shared by long lists. Without `limit` the whole list is answered. */
export const ListQuery = <const S extends readonly [string, ...string[]]>(sortable: S) =>
  z.object({
    q: z.string().trim().max(200).optional().describe('Text to search for'),
    sort: z.enum(sortable).optional(),
    order: z.enum(['asc', 'desc']).default('asc'),
    offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
  });

/** An ISO 8601 time in UTC. */
export const Timestamp = z.string().describe('ISO 8601, UTC');
