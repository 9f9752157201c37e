import type { Permission, ResponseOf, RouteName, Routes } from '@gatehouse/contracts';

/** The answer of a contract route, as the mock must produce it. */
export type Answer<K extends RouteName> = ResponseOf<Routes[K]>;

/** A user of the mock organisation (the list item, plus the password sign-in ignores). */
export interface MockUser {
  id: string;
  email: string;
  name: string | null;
  /** Role names held. */
  roles: string[];
  created_at: string;
}

/** A role: its permissions and whether it is built in. */
export interface MockRole {
  name: string;
  permissions: Permission[];
  builtin: boolean;
  /** Holders must set up a second factor (issue 20). */
  requireTwoFactor?: boolean;
}

/** A group with its direct members (emails, agent ids, child group names). */
export interface MockGroup {
  name: string;
  users: string[];
  agents: string[];
  groups: string[];
  created_at: string;
}

/** A tunnel definition as the mock keeps it: the host and users by id. */
export interface MockTunnel {
  id: string;
  type: Answer<'listAllTunnels'>['ssh'][number]['type'];
  name: string;
  host_id: string;
  port: number;
  /** Ids of users admitted directly. */
  users: string[];
  group: string | null;
  /** Ids of agents that may open an agent tunnel. */
  agents: string[];
  ssh_login: string | null;
  ssh_auth: 'key' | 'password' | null;
  public_key: string | null;
  allow_port_forwarding: boolean;
  created_at: string;
}

export type MockAgent = Answer<'listAgents'>['agents'][number];
export type HostConfig = Answer<'getAgentConfig'>;
export type MockApiKey = Answer<'listApiKeys'>['keys'][number];
export type MockSshKey = Answer<'listSshKeys'>['keys'][number];
export type MockPod = Answer<'listPods'>['pods'][number];
export type RecordingRow = Answer<'listRecordings'>['recordings'][number];
/** A kept message of the mail outbox, with its text. */
export type MockOutboxMessage = Answer<'getOutboxMessage'>;

/** A recording with what the detail and the player need. */
export interface MockRecording extends RecordingRow {
  width: number;
  height: number;
  /** The login on the host (the prompt of the generated cast). */
  login: string;
  tunnel_id: string | null;
  user_id: string | null;
}

/** Everything the mock API answers from; writes change it in place (until the page reloads). */
export interface MockState {
  /** The moment the data was generated around (ms since the epoch). */
  now: number;
  users: MockUser[];
  roles: MockRole[];
  groups: MockGroup[];
  agents: MockAgent[];
  tunnels: MockTunnel[];
  apiKeys: MockApiKey[];
  recordings: MockRecording[];
  /** SSH keys by the owner's email. */
  sshKeys: Map<string, MockSshKey[]>;
  settings: Answer<'getSettings'>;
  security: Answer<'security'>;
  license: Answer<'getLicense'>;
  certificate: Answer<'getIngressTls'>;
  versions: Answer<'getVersions'>;
  authConfig: Answer<'getSsoConfig'>;
  pods: MockPod[];
  /** The mail outbox, newest first. */
  outbox: MockOutboxMessage[];
}
