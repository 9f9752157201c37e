import { ADMIN_ROLE, effectivePermissions, type Permission } from '@gatehouse/contracts';
import type { RoleWithPermissions } from '../users/users.repository.js';

/** Who is calling: resolved from the token on every request, so role changes apply at once. */
export interface Principal {
  userId: string;
  email: string;
  name: string | null;
  roles: RoleWithPermissions[];
  permissions: ReadonlySet<Permission>;
  tokenHash: string;
  expiresAt: Date;
  /** 'session', or 'oneshot' for a token that authenticates a single call. */
  tokenKind: string;
  /** When the token was issued (freshness). */
  issuedAt: Date;
  /** A role requires a second factor the user has not enrolled: only enrolment calls answer (issue 20). */
  mustEnrol?: boolean;
}

/** Builds a principal from a user and their roles. */
export function toPrincipal(
  user: { id: string; email: string; name: string | null },
  roles: RoleWithPermissions[],
  tokenHash: string,
  expiresAt: Date,
  token: { kind: string; issuedAt: Date } = { kind: 'session', issuedAt: new Date() },
): Principal {
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    roles,
    permissions: new Set(effectivePermissions(roles)),
    tokenHash,
    expiresAt,
    tokenKind: token.kind,
    issuedAt: token.issuedAt,
  };
}

/** True when the principal holds the admin role. */
export function holdsAdminRole(principal: Principal): boolean {
  return principal.roles.some((r) => r.name === ADMIN_ROLE);
}
