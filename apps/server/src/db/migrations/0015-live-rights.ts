/**
 * Live rights: every change that can take a right away (tokens revoked, users, roles and their
 * permissions, role and group membership, nesting, tunnel definitions and their members, agents
 * deleted or re-keyed) appends a row to rights_changes in the same transaction, so the row is seen
 * exactly when the change is. Every server instance polls count(*) and sum(id) of this small table
 * and, when they moved, re-checks its live sockets and SSH connections (realtime/live-rights.ts).
 * Statement-level triggers with transition tables: one row per statement that changed rows, none
 * for a statement that changed nothing (the hourly token purge, a one-shot token already used).
 * Rows older than ten minutes are pruned by the instances.
 */
const TABLES = [
  'users',
  'auth_tokens',
  'roles',
  'role_permissions',
  'user_roles',
  'groups',
  'group_users',
  'group_agents',
  'group_groups',
  'tunnel_definitions',
  'tunnel_definition_users',
  'tunnel_definition_agents',
] as const;

const statementTriggers = TABLES.flatMap((table) =>
  (
    [
      ['insert', 'INSERT', 'NEW'],
      ['update', 'UPDATE', 'NEW'],
      ['delete', 'DELETE', 'OLD'],
    ] as const
  ).map(
    ([name, event, side]) =>
      `CREATE TRIGGER ${table}_rights_${name} AFTER ${event} ON ${table} REFERENCING ${side} TABLE AS changed_rows ` +
      `FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_rights_changed();`,
  ),
).join('\n');

export const sql = `
CREATE TABLE rights_changes (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE FUNCTION gatehouse_rights_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed_rows) THEN
    INSERT INTO rights_changes DEFAULT VALUES;
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION gatehouse_agent_rights_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rights_changes DEFAULT VALUES;
  RETURN NULL;
END $$;
${statementTriggers}
CREATE TRIGGER agents_rights_delete AFTER DELETE ON agents
  FOR EACH ROW EXECUTE FUNCTION gatehouse_agent_rights_changed();
CREATE TRIGGER agents_rights_rekey AFTER UPDATE OF credential_hash, hostname ON agents
  FOR EACH ROW WHEN (OLD.credential_hash IS DISTINCT FROM NEW.credential_hash OR OLD.hostname IS DISTINCT FROM NEW.hostname)
  EXECUTE FUNCTION gatehouse_agent_rights_changed();
`;
