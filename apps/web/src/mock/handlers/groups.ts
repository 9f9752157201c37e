import { found, list, required } from '../body';
import { MockError, type MockContext, type NamedHandler, route } from '../http';
import type { Answer, MockGroup, MockState } from '../types';
import { findUser } from './people';
import { cycleThrough } from './reach';

function groupItem(state: MockState, group: MockGroup): Answer<'listGroups'>['groups'][number] {
  return {
    name: group.name,
    users: [...group.users],
    agents: group.agents.flatMap((id) => {
      const agent = state.agents.find((a) => a.id === id);
      return agent ? [{ id: agent.id, hostname: agent.hostname }] : [];
    }),
    groups: [...group.groups],
    created_at: group.created_at,
  };
}

function groupAt(state: MockState, name: string | undefined): MockGroup {
  return found(
    state.groups.find((group) => group.name === name),
    `The group ${name ?? ''}`,
  );
}

/** Groups: members, hosts and nesting (cycles refused, naming the cycle). */
export function groupHandlers(state: MockState, context: MockContext): NamedHandler[] {
  return [
    route(context, 'listGroups', () => ({
      groups: [...state.groups]
        .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()))
        .map((group) => groupItem(state, group)),
    })),
    route(
      context,
      'createGroup',
      ({ body }) => {
        const name = required(body, 'name', 'Group name is required');
        if (name.includes('/')) throw new MockError(400, 'Group name must not contain slashes or control characters');
        if (state.groups.some((group) => group.name === name))
          throw new MockError(409, 'That group name is already in use.  Please use a different name.');
        const group: MockGroup = { name, users: [], agents: [], groups: [], created_at: new Date().toISOString() };
        state.groups.push(group);
        return { group: groupItem(state, group), message: 'Group created' };
      },
      201,
    ),
    route(context, 'deleteGroup', ({ params }) => {
      const group = groupAt(state, params.name);
      state.groups = state.groups.filter((g) => g !== group);
      for (const parent of state.groups) parent.groups = parent.groups.filter((name) => name !== group.name);
      for (const tunnel of state.tunnels) if (tunnel.group === group.name) tunnel.group = null;
      return { message: 'Group deleted' };
    }),
    route(context, 'addGroupUsers', ({ params, body }) => {
      const group = groupAt(state, params.name);
      const emails = list(body, 'users').map((email) => found(findUser(state, email), `The user ${email}`).email);
      if (emails.length === 0) throw new MockError(400, 'Name at least one user');
      if (emails.every((email) => group.users.includes(email)))
        throw new MockError(409, 'The user you are trying to include has already been included.');
      group.users = [...new Set([...group.users, ...emails])];
      return { message: 'User added to group' };
    }),
    route(context, 'removeGroupUser', ({ params }) => {
      const group = groupAt(state, params.name);
      group.users = group.users.filter((email) => email !== params.email?.toLowerCase());
      return { message: 'User removed from group' };
    }),
    route(context, 'addGroupAgents', ({ params, body }) => {
      const group = groupAt(state, params.name);
      const ids = list(body, 'agents').map(
        (id) =>
          found(
            state.agents.find((a) => a.id === id),
            `The host ${id}`,
          ).id,
      );
      if (ids.length === 0) throw new MockError(400, 'Name at least one agent');
      group.agents = [...new Set([...group.agents, ...ids])];
      return { message: 'Host added to group' };
    }),
    route(context, 'removeGroupAgent', ({ params }) => {
      const group = groupAt(state, params.name);
      group.agents = group.agents.filter((id) => id !== params.id);
      return { message: 'Host removed from group' };
    }),
    route(context, 'addChildGroups', ({ params, body }) => {
      const group = groupAt(state, params.name);
      const children = list(body, 'groups').map((name) => groupAt(state, name).name);
      if (children.length === 0) throw new MockError(400, 'Name at least one group');
      for (const child of children) {
        if (group.groups.includes(child)) throw new MockError(409, `${child} is already nested in ${group.name}.`);
        const cycle = cycleThrough(state, group.name, child);
        if (cycle)
          throw new MockError(409, `Nesting ${child} in ${group.name} would make a cycle: ${cycle.join(' → ')}`);
      }
      group.groups.push(...children);
      return { message: 'Group updated' };
    }),
    route(context, 'removeChildGroup', ({ params }) => {
      const group = groupAt(state, params.name);
      group.groups = group.groups.filter((name) => name !== params.child);
      return { message: 'Group updated' };
    }),
  ];
}
