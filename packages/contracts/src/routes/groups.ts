import { z } from 'zod';
import { MessageBody, defineRoute } from '../route.js';
import { Email, PathName, Timestamp } from './common.js';

/** A group with its direct members. */
export const Group = z
  .object({
    name: z.string(),
    users: z.array(z.string()).describe('Emails of direct members'),
    agents: z.array(z.object({ id: z.string(), hostname: z.string() })),
    groups: z.array(z.string()).describe('Child groups: their members belong to this group too'),
    created_at: Timestamp,
  })
  .meta({ id: 'Group' });

const nameParam = z.object({ name: PathName('Group') });
const modify = { kind: 'permissions', anyOf: ['modify-group'] } as const;

export const listGroups = defineRoute({
  id: 'group.list',
  method: 'GET',
  path: '/api/group',
  tag: 'groups',
  summary: 'Every group with its direct members, sorted by name without regard to case.',
  access: { kind: 'permissions', anyOf: ['list-group'] },
  response: z.object({ groups: z.array(Group) }),
});

export const createGroup = defineRoute({
  id: 'group.create',
  method: 'POST',
  path: '/api/group',
  tag: 'groups',
  summary: 'Create a group.',
  access: modify,
  body: z.object({ name: PathName('Group') }),
  status: 201,
  response: z.object({ group: Group, message: z.string() }),
  errors: { 409: 'That group name is already in use.  Please use a different name.' },
});

export const deleteGroup = defineRoute({
  id: 'group.delete',
  method: 'DELETE',
  path: '/api/group/{name}',
  tag: 'groups',
  summary: 'Delete a group; its members lose what they reached through it.',
  access: modify,
  params: nameParam,
  response: MessageBody,
});

export const addGroupUsers = defineRoute({
  id: 'group.users.add',
  method: 'PUT',
  path: '/api/group/{name}/users',
  tag: 'groups',
  summary: 'Add users (emails) to a group.',
  access: modify,
  params: nameParam,
  body: z.object({ users: z.array(Email).min(1, 'Name at least one user').max(1000) }),
  response: MessageBody,
  errors: { 409: 'The user you are trying to include has already been included.' },
});

export const removeGroupUser = defineRoute({
  id: 'group.user.remove',
  method: 'DELETE',
  path: '/api/group/{name}/user/{email}',
  tag: 'groups',
  summary: 'Remove a user from a group.',
  access: modify,
  params: z.object({ name: PathName('Group'), email: Email }),
  response: MessageBody,
});

export const addGroupAgents = defineRoute({
  id: 'group.agents.add',
  method: 'PUT',
  path: '/api/group/{name}/agents',
  tag: 'groups',
  summary: 'Add agents (ids) to a group.',
  access: modify,
  params: nameParam,
  body: z.object({
    agents: z
      .array(z.uuid({ error: 'Not an agent id' }))
      .min(1, 'Name at least one agent')
      .max(1000),
  }),
  response: MessageBody,
});

export const removeGroupAgent = defineRoute({
  id: 'group.agent.remove',
  method: 'DELETE',
  path: '/api/group/{name}/agent/{id}',
  tag: 'groups',
  summary: 'Remove an agent from a group.',
  access: modify,
  params: z.object({ name: PathName('Group'), id: z.uuid({ error: 'Not an agent id' }) }),
  response: MessageBody,
});

export const addChildGroups = defineRoute({
  id: 'group.groups.add',
  method: 'PUT',
  path: '/api/group/{name}/groups',
  tag: 'groups',
  summary: 'Nest groups (names) inside a group. A nesting that would make a cycle is refused, naming the cycle.',
  access: modify,
  params: nameParam,
  body: z.object({ groups: z.array(PathName('Group')).min(1, 'Name at least one group').max(1000) }),
  response: MessageBody,
  errors: { 409: 'A cycle, or already nested' },
});

export const removeChildGroup = defineRoute({
  id: 'group.group.remove',
  method: 'DELETE',
  path: '/api/group/{name}/group/{child}',
  tag: 'groups',
  summary: 'Take a child group out of a group.',
  access: modify,
  params: z.object({ name: PathName('Group'), child: PathName('Group') }),
  response: MessageBody,
});
