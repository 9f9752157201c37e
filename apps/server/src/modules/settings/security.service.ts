import { DEFAULT_TOKEN_MAX_AGE_SECONDS, type ParsedBodyOf, type Routes, SecuritySettings } from '@gatehouse/contracts';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import {
  CATALOGUE,
  type EndpointPattern,
  backtrackingProblem,
  methodCovers,
  refusal,
  selectRoutes,
} from './endpoint-patterns.js';
import type { SettingsRepository } from './settings.repository.js';

type Security = z.infer<typeof SecuritySettings>;

/** Defaults until an administrator saves security settings. */
export const DEFAULT_SECURITY: Security = {
  api_limit_single_use: false,
  api_limit_freshness: false,
  api_limit_endpoints: [],
  effectiveTokenMaxAge: DEFAULT_TOKEN_MAX_AGE_SECONDS,
};

/**
 * How long the request path may use settings it read (every request checks the limited
 * endpoints; another instance's change applies here within this time).
 */
const CACHE_MS = 2000;

/** The route ids the stored endpoints select; entries that could not be evaluated select every route of their method. */
interface Selected {
  key: string;
  ids: Promise<{ ids: Set<string>; complete: boolean }>;
}

/** Whatever an entry selects when it cannot be evaluated: fail closed, every route of its method. */
function everyRouteOf(entry: EndpointPattern): string[] {
  return CATALOGUE.filter((r) => methodCovers(entry.method, r.method)).map((r) => r.id);
}

/** Reads and saves the security settings, and says which routes they limit. */
export class SecurityService {
  private cached: { at: number; settings: Security } | undefined;
  private selected: Selected | undefined;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** The settings in force. */
  async get(): Promise<Security> {
    const stored = SecuritySettings.partial().safeParse(await this.settings.get('security'));
    return { ...DEFAULT_SECURITY, ...(stored.success ? stored.data : {}) };
  }

  /** Changes the fields sent (the caller's freshness was checked before). */
  async save(body: ParsedBodyOf<Routes['saveSecurity']>) {
    const current = await this.get();
    if (body.api_limit_endpoints) await this.check(body.api_limit_endpoints);
    const next: Security = {
      api_limit_single_use: body.api_limit_single_use ?? current.api_limit_single_use,
      api_limit_freshness: body.api_limit_freshness ?? current.api_limit_freshness,
      api_limit_endpoints: body.api_limit_endpoints ?? current.api_limit_endpoints,
      effectiveTokenMaxAge: body.effectiveTokenMaxAge ?? current.effectiveTokenMaxAge,
    };
    await this.settings.put('security', next);
    this.cached = undefined;
    return { message: 'Configuration saved.', security: next };
  }

  /**
   * Refuses entries an administrator should not save: super-linear backtracking (never run), a pattern
   * that overruns its time over the catalogue, or one that selects no route (it would limit nothing).
   */
  private async check(entries: readonly EndpointPattern[]): Promise<void> {
    const errors: string[] = [];
    const runnable: EndpointPattern[] = [];
    for (const entry of entries) {
      const problem = backtrackingProblem(entry.path);
      if (problem) errors.push(problem);
      else runnable.push(entry);
    }
    const selections = await selectRoutes(runnable);
    runnable.forEach((entry, i) => {
      const selection = selections[i];
      const message = selection && refusal(entry, selection);
      if (message) errors.push(message);
    });
    if (errors.length > 0) throw new HttpError(400, errors[0] ?? 'A limited endpoint was refused.', errors);
  }

  /** The route ids the stored entries select, evaluated once per distinct list (bounded, off this thread). */
  private selectionOf(entries: readonly EndpointPattern[]): Selected['ids'] {
    const key = JSON.stringify(entries.map((e) => [e.method, e.path]));
    if (this.selected?.key === key) return this.selected.ids;
    const ids = selectRoutes(entries).then((selections) => {
      const all = new Set<string>();
      let complete = true;
      selections.forEach((selection, i) => {
        const entry = entries[i];
        if (!entry) return;
        if (selection.kind === 'routes') {
          for (const id of selection.ids) all.add(id);
          return;
        }
        if (selection.kind === 'unavailable') complete = false;
        this.warn(
          `The limited endpoint ${entry.method} ${entry.path} could not be evaluated (${selection.kind}); ` +
            'it limits every route of its method until an administrator changes it.',
        );
        for (const id of everyRouteOf(entry)) all.add(id);
      });
      return { ids: all, complete };
    });
    const selected: Selected = { key, ids };
    this.selected = selected;
    // A thread that could not run is tried again on the next read rather than kept.
    void ids.then(({ complete }) => {
      if (!complete && this.selected === selected) this.selected = undefined;
    });
    return ids;
  }

  /**
   * Which re-authorization a call of this route needs under the settings: none, single-use or
   * freshness. Decided on the route that will run, never on the request's URL.
   */
  async limitFor(route: { id: string }): Promise<'single-use' | 'freshness' | undefined> {
    if (!this.cached || Date.now() - this.cached.at > CACHE_MS) {
      this.cached = { at: Date.now(), settings: await this.get() };
    }
    const { settings } = this.cached;
    if (!settings.api_limit_single_use && !settings.api_limit_freshness) return undefined;
    const { ids } = await this.selectionOf(settings.api_limit_endpoints);
    if (!ids.has(route.id)) return undefined;
    return settings.api_limit_single_use ? 'single-use' : 'freshness';
  }
}
