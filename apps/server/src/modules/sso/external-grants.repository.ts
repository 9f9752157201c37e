import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  externalGroupMembers,
  externalRoleHolders,
  groupUsers,
  groups,
  roles,
  userRoles,
  users,
} from '../../db/schema.js';

/**
 * The roles and group memberships a directory or identity provider gives, kept apart from those
 * given here: on each sign-in what the provider gives is set to exactly what it sends now, and
 * what was given here is never touched.
 */
export class ExternalGrantsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Makes the provider-given roles and groups of a user exactly `roleNames` and `groupNames` (those
   * that exist here): missing ones are added and recorded as the provider's, recorded ones it no
   * longer sends are removed. A role or membership the user already held from here stays theirs.
   */
  async sync(userId: string, roleNames: string[], groupNames: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      const wantRoles = roleNames.length
        ? (await tx.select({ n: roles.name }).from(roles).where(inArray(roles.name, roleNames))).map((r) => r.n)
        : [];
      const heldRoles = new Set(
        (await tx.select({ n: userRoles.roleName }).from(userRoles).where(eq(userRoles.userId, userId))).map(
          (r) => r.n,
        ),
      );
      for (const role of wantRoles)
        if (!heldRoles.has(role)) {
          await tx.insert(userRoles).values({ userId, roleName: role }).onConflictDoNothing();
          await tx.insert(externalRoleHolders).values({ userId, roleName: role }).onConflictDoNothing();
        }
      const givenRoles = await tx
        .select({ n: externalRoleHolders.roleName })
        .from(externalRoleHolders)
        .where(eq(externalRoleHolders.userId, userId));
      for (const { n } of givenRoles)
        if (!wantRoles.includes(n)) {
          await tx.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.roleName, n)));
          await tx
            .delete(externalRoleHolders)
            .where(and(eq(externalRoleHolders.userId, userId), eq(externalRoleHolders.roleName, n)));
        }

      const wantGroups = groupNames.length
        ? (await tx.select({ n: groups.name }).from(groups).where(inArray(groups.name, groupNames))).map((g) => g.n)
        : [];
      const inGroups = new Set(
        (await tx.select({ n: groupUsers.groupName }).from(groupUsers).where(eq(groupUsers.userId, userId))).map(
          (g) => g.n,
        ),
      );
      for (const group of wantGroups)
        if (!inGroups.has(group)) {
          await tx.insert(groupUsers).values({ groupName: group, userId }).onConflictDoNothing();
          await tx.insert(externalGroupMembers).values({ groupName: group, userId }).onConflictDoNothing();
        }
      const givenGroups = await tx
        .select({ n: externalGroupMembers.groupName })
        .from(externalGroupMembers)
        .where(eq(externalGroupMembers.userId, userId));
      for (const { n } of givenGroups)
        if (!wantGroups.includes(n)) {
          await tx.delete(groupUsers).where(and(eq(groupUsers.userId, userId), eq(groupUsers.groupName, n)));
          await tx
            .delete(externalGroupMembers)
            .where(and(eq(externalGroupMembers.userId, userId), eq(externalGroupMembers.groupName, n)));
        }
      await tx
        .update(users)
        .set({ lastExternalSignInAt: sql`now()` })
        .where(eq(users.id, userId));
    });
  }

  /** The roles the provider gave this user (recorded by sync). */
  async givenRoles(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ n: externalRoleHolders.roleName })
      .from(externalRoleHolders)
      .where(eq(externalRoleHolders.userId, userId));
    return rows.map((r) => r.n);
  }

  /** Deletes an account whose email was never verified (a sign-up nobody confirmed); true when it did. */
  async deleteUnverified(userId: string): Promise<boolean> {
    const rows = await this.db
      .delete(users)
      .where(and(eq(users.id, userId), eq(users.emailVerified, false)))
      .returning({ id: users.id });
    return rows.length > 0;
  }
}
