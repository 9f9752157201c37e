import { z } from 'zod';
import { defineRoute } from '../route.js';

/** What a definition lets a person open: an SSH shell (with exec, scp and sftp), an RDP desktop, a TCP tunnel. */
export const AccessKind = z.enum(['ssh', 'rdp', 'generic']);
export type AccessKind = z.infer<typeof AccessKind>;

/** The uses a definition admits (the policy's uses): shell, exec, sftp and forward ride on ssh definitions. */
export const AccessUse = z.enum(['shell', 'exec', 'sftp', 'forward', 'rdp', 'generic']);
export type AccessUse = z.infer<typeof AccessUse>;

/** Copy-ready commands for one entry, built from the server's real gateway address and URL. */
export const AccessCommands = z.object({
  ssh: z.string().optional().describe('ssh: a shell on the host through the gateway'),
  scp: z.string().optional().describe('ssh: copy a file to the host (FILE is the user’s to fill in)'),
  sftp: z.string().optional().describe('ssh: an interactive sftp session'),
  ssh_config: z
    .string()
    .optional()
    .describe('ssh: a Host entry for ~/.ssh/config; then `ssh ALIAS`, `scp FILE ALIAS:`, `sftp ALIAS`'),
  ssh_alias: z.string().optional().describe('ssh: the alias the Host entry defines'),
  tunnel: z
    .string()
    .optional()
    .describe('rdp and generic: `npx gatehouse tunnel` listening on a local port, asking for the password'),
  desktop_path: z.string().optional().describe('rdp: the console route of the browser desktop'),
});
export type AccessCommands = z.infer<typeof AccessCommands>;

/** One host the caller reaches through one definition, and how. */
export const AccessEntry = z
  .object({
    definition: z.object({ id: z.string(), name: z.string(), type: AccessKind }),
    host: z.object({
      id: z.string(),
      hostname: z.string(),
      state: z.enum(['connected', 'reconnecting', 'disconnected']).describe('Whether its agent is connected now'),
    }),
    port: z.number().int().describe('The port on the host the definition reaches'),
    ssh_login: z.string().nullable().describe('ssh: the account Gatehouse logs in as on the host'),
    uses: z.array(AccessUse),
    via: z.object({
      direct: z.boolean().describe('The definition names the caller'),
      groups: z.array(z.string()).describe('Groups of the caller (nesting included) the definition admits'),
    }),
    commands: AccessCommands,
  })
  .meta({ id: 'AccessEntry' });
export type AccessEntry = z.infer<typeof AccessEntry>;

/** The caller's own access: what they reach, how to connect, and whom to ask for more. */
export const MyAccess = z
  .object({
    email: z.string().describe('The caller'),
    may_open: z
      .boolean()
      .describe('A role of the caller holds create-tunnel; without it no definition opens anything for them'),
    gateway: z.object({
      host: z.string().describe('The SSH gateway’s address as clients reach it'),
      port: z.number().int(),
    }),
    server_url: z.string().describe('The console’s URL, which `gatehouse tunnel --server` takes'),
    entries: z.array(AccessEntry),
    contacts: z
      .array(z.string())
      .describe('Emails of people who may change tunnel definitions (at most 5): whom to ask for access'),
  })
  .meta({ id: 'MyAccess' });
export type MyAccess = z.infer<typeof MyAccess>;

export const myAccess = defineRoute({
  id: 'me.access',
  method: 'GET',
  path: '/api/me/access',
  tag: 'users',
  summary:
    'The caller’s own reach, as the access policy decides it: each host and tunnel a definition admits them to ' +
    '(directly or through nested groups), with copy-ready ssh, scp, sftp, ~/.ssh/config and `gatehouse tunnel` ' +
    'commands for the gateway’s real address. Only ever the caller’s.',
  access: { kind: 'signed-in' },
  response: MyAccess,
});
