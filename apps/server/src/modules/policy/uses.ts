/** What a person wants to do on a host through a tunnel definition. */
export type Use = 'shell' | 'exec' | 'sftp' | 'forward' | 'rdp' | 'generic';

/** The definition type that serves a use: shell, exec, sftp and forwarding go through ssh definitions. */
export function definitionTypeFor(use: Use): 'ssh' | 'rdp' | 'generic' {
  return use === 'rdp' || use === 'generic' ? use : 'ssh';
}

/** Where a decision was asked, for the audit entry of a denial. */
export interface DecisionContext {
  /** The client's address, when there is one. */
  source?: string | null;
}
