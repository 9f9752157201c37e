/**
 * Issue 14: create-tunnel ("open sessions and tunnels through the gateway") is enforced by the
 * policy from now on. Existing databases give it to the built-in user role once, so everyone who
 * could connect before still can; an administrator may take it away afterwards.
 */
export const sql = `
INSERT INTO role_permissions (role_name, permission)
SELECT name, 'create-tunnel' FROM roles WHERE name = 'user'
ON CONFLICT DO NOTHING;
`;
