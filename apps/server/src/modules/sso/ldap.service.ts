import type { FastifyBaseLogger } from 'fastify';
import { Client } from 'ldapts';
import { HttpError } from '../../http/errors.js';
import type { AuthService } from '../auth/auth.service.js';
import type { ExternalAccounts } from './external-accounts.js';
import type { LdapSettings, SsoConfigService } from './sso-config.service.js';

/** Escapes a value for an LDAP search filter (RFC 4515). */
export function escapeFilter(value: string): string {
  return value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function urlOf(settings: LdapSettings): string {
  const [host, port] = settings.host.split(/:(?=\d+$)/);
  return `${settings.useSsl ? 'ldaps' : 'ldap'}://${host}:${port ?? (settings.useSsl ? 636 : 389)}`;
}

/**
 * A directory failure in our words, never the server's own text (issue 14: a test must not echo
 * what a foreign server says, nor tell a closed port from a silent one or another service).
 */
export function ldapFailure(error: unknown, target: string, step: 'bind' | 'search'): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number') {
    if (code === 49) return `The directory at ${target} refused the service account's name or password.`;
    return `The directory at ${target} refused the ${step} (LDAP result code ${code}).`;
  }
  return (
    `Could not talk to a directory at ${target}: nothing answered, the name is unknown, or what answered is not ` +
    'an LDAP server. Check the host, the port and the SSL setting.'
  );
}

function first(value: unknown): string | undefined {
  const v: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
  if (typeof v === 'string') return v;
  return Buffer.isBuffer(v) ? v.toString('utf8') : undefined;
}

/**
 * Directory sign-in (auth type 4): the service account finds the user with the user filter, the
 * user's own password is checked by binding as them, and their directory groups decide their
 * Gatehouse roles (a group named like a role gives it) and groups (one named like a Gatehouse
 * group makes them a member). Accounts are created on first sign-in. Every connection is unbound
 * in a finally.
 */
export class LdapService {
  constructor(
    private readonly config: SsoConfigService,
    private readonly auth: AuthService,
    private readonly accounts: ExternalAccounts,
    private readonly log?: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  private client(settings: LdapSettings): Client {
    return new Client({ url: urlOf(settings), timeout: 5000, connectTimeout: 5000 });
  }

  /** Tries the settings: connect, bind as the service account, search the base DN. */
  async test(settings: LdapSettings) {
    if (!settings.host || !settings.baseDn)
      return { ok: false, message: 'Enter the directory host and base DN first.' };
    if (settings.passwordWithheld)
      return {
        ok: false,
        message:
          'The saved bind password is only ever sent to the saved host, for the saved service account: enter the ' +
          'password to test another host or account.',
      };
    const client = this.client(settings);
    try {
      await client.bind(settings.bindUser, settings.bindPassword);
    } catch (error) {
      await client.unbind().catch(() => undefined);
      const who = settings.bindUser ? `as ${settings.bindUser}` : 'anonymously';
      return { ok: false, message: `Could not bind ${who}. ${ldapFailure(error, urlOf(settings), 'bind')}` };
    }
    try {
      const { searchEntries } = await client.search(settings.baseDn, {
        scope: 'sub',
        filter: settings.userFilter.replaceAll('{email}', '*'),
        attributes: ['dn'],
        sizeLimit: 1000,
      });
      return {
        ok: true,
        message: `Connected to ${urlOf(settings)} and found ${searchEntries.length} users under ${settings.baseDn}.`,
        users_found: searchEntries.length,
      };
    } catch (error) {
      return {
        ok: false,
        message: `Bound, but searching ${settings.baseDn} failed. ${ldapFailure(error, urlOf(settings), 'search')}`,
      };
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  /** Signs a directory user in; answers what the password sign-in answers. */
  async login(emailInput: string, password: string, source: string) {
    if ((await this.config.authType()) !== 4)
      throw new HttpError(400, 'Directory sign-in is not configured here: sign in with your email and password.');
    const email = emailInput.trim().toLowerCase();
    await this.auth.guardSignIn(email, source);
    // An empty password would be an anonymous bind, which many directories accept: never a sign-in.
    if (!password) throw await this.auth.failedSignIn(email);
    const settings = await this.config.ldap();
    const service = this.client(settings);
    let found: { dn: string; name: string | undefined; groups: string[] } | undefined;
    try {
      try {
        await service.bind(settings.bindUser, settings.bindPassword);
      } catch (error) {
        // What a person signing in reads: our words; the detail is in the server's log.
        this.log?.warn({ err: error }, 'directory service account bind failed');
        throw new HttpError(
          502,
          'Directory sign-in is unavailable: Gatehouse could not use its service account. Tell an administrator.',
        );
      }
      const { searchEntries } = await service.search(settings.baseDn, {
        scope: 'sub',
        filter: settings.userFilter.replaceAll('{email}', escapeFilter(email)),
        attributes: ['cn', 'displayName', 'mail'],
        sizeLimit: 2,
      });
      const entry = searchEntries.length === 1 ? searchEntries[0] : undefined;
      if (entry) {
        const groupEntries = settings.groupFilter
          ? (
              await service.search(settings.baseDn, {
                scope: 'sub',
                filter: settings.groupFilter
                  .replaceAll('{dn}', escapeFilter(entry.dn))
                  .replaceAll('{email}', escapeFilter(email)),
                attributes: ['cn'],
                sizeLimit: 500,
              })
            ).searchEntries
          : [];
        found = {
          dn: entry.dn,
          name: first(entry.displayName) ?? first(entry.cn),
          groups: groupEntries.map((g) => first(g.cn)).filter((g): g is string => Boolean(g)),
        };
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.log?.warn({ err: error }, 'directory search failed');
      throw new HttpError(
        502,
        'Directory sign-in is unavailable: the directory could not be searched. Try again later.',
      );
    } finally {
      await service.unbind().catch(() => undefined);
    }
    if (!found) throw await this.auth.failedSignIn(email);
    const asUser = this.client(settings);
    try {
      await asUser.bind(found.dn, password);
    } catch {
      throw await this.auth.failedSignIn(email);
    } finally {
      await asUser.unbind().catch(() => undefined);
    }
    await this.auth.succeededSignIn(email);
    const user = await this.accounts.provision({ email, name: found.name ?? null, groups: found.groups });
    return this.auth.issueToken(user);
  }
}
