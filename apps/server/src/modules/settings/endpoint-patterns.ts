import { Worker } from 'node:worker_threads';
import { type RouteContract, routes } from '@gatehouse/contracts';
import safeRegex from 'safe-regex2';

/**
 * Which routes the security settings' api_limit_endpoints select (spec §3: each entry a method and a
 * path regular expression). A pattern is matched against the route catalogue — every contract route's
 * path template as GET /api/openapi.json lists it, such as /api/role/{name} — once, when the settings
 * are saved or first read, never against a request's URL. The request path then only asks whether the
 * route that will run was selected, so no encoding of a URL (trailing slash, %-escapes, an absolute
 * URI, HEAD for GET) can change the answer, and no administrator's expression runs per request.
 */

/** A route of the catalogue, as a pattern sees it. */
export interface CatalogueRoute {
  id: string;
  method: string;
  path: string;
}

/** Every contract route: the only paths patterns are ever matched against. */
export const CATALOGUE: readonly CatalogueRoute[] = Object.values(routes).map((r: RouteContract) => ({
  id: r.id,
  method: r.method,
  path: r.path,
}));

/** A limited endpoint as stored (spec §3). */
export interface EndpointPattern {
  method: string;
  path: string;
}

/** What one pattern selects, or why it selects nothing it was meant to. */
export type Selection =
  | { kind: 'routes'; ids: string[] }
  | { kind: 'invalid'; message: string }
  | { kind: 'too-slow' }
  | { kind: 'unavailable'; message: string };

/** Time one pattern may take over the whole catalogue (a sane one takes well under a millisecond). */
export const PATTERN_BUDGET_MS = 250;
/** Time the evaluating thread may take to start. */
const START_BUDGET_MS = 10_000;

/**
 * Why a pattern is refused before it is ever run: nested or too many repetitions (safe-regex2, the
 * check fastify uses) are what makes backtracking super-linear, as in ^/api/user/(a+)+$.
 */
export function backtrackingProblem(path: string): string | undefined {
  if (safeRegex(path)) return undefined;
  return (
    `The path ${path} could take exponential time to match (a repetition inside a repetition, such as (a+)+, ` +
    'or more than 25 repetitions). Write it without nesting, for example ^/api/user/[^/]+$, or pick a route ' +
    'from the catalogue.'
  );
}

/** Whether an entry's method (GET, POST, PUT, DELETE or *) covers a route's. */
export function methodCovers(method: string, routeMethod: string): boolean {
  const m = method.trim().toUpperCase();
  return m === '*' || m === routeMethod;
}

/**
 * The evaluating thread: plain JavaScript run with `eval` (works from the built server and from the
 * TypeScript sources alike). It answers each pattern in turn; the caller stops it when one overruns.
 */
const SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
parentPort.postMessage({ ready: true });
const { patterns, paths } = workerData;
for (let i = 0; i < patterns.length; i += 1) {
  let re;
  try {
    re = new RegExp(patterns[i]);
  } catch (error) {
    parentPort.postMessage({ i, invalid: String(error && error.message) });
    continue;
  }
  const hits = [];
  for (let j = 0; j < paths.length; j += 1) if (re.test(paths[j])) hits.push(j);
  parentPort.postMessage({ i, hits });
}
`;

interface WorkerAnswer {
  ready?: true;
  i?: number;
  invalid?: string;
  hits?: number[];
}

/**
 * Runs patterns [from, …) on their own thread over the catalogue's paths. Resolves with the index
 * reached: every pattern before it answered; the one at it (if any) overran its budget.
 */
function runFrom(
  patterns: string[],
  paths: string[],
  from: number,
  answer: (i: number, a: WorkerAnswer) => void,
): Promise<{ reached: number; failure?: string }> {
  return new Promise((resolve) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: { patterns: patterns.slice(from), paths } });
    let next = from;
    let done = false;
    let timer: NodeJS.Timeout;
    const finish = (result: { reached: number; failure?: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const arm = (ms: number, failure?: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => finish({ reached: next, ...(failure ? { failure } : {}) }), ms);
    };
    arm(START_BUDGET_MS, 'The pattern check did not start in time. Try again.');
    worker.on('message', (m: WorkerAnswer) => {
      if (m.ready) return arm(PATTERN_BUDGET_MS);
      answer(from + (m.i ?? 0), m);
      next = from + (m.i ?? 0) + 1;
      if (next >= patterns.length) return finish({ reached: next });
      arm(PATTERN_BUDGET_MS);
    });
    worker.on('error', (error) => finish({ reached: next, failure: `The pattern check failed: ${error.message}` }));
    worker.on('exit', () => finish({ reached: next, failure: 'The pattern check stopped early. Try again.' }));
  });
}

/**
 * What each entry selects from the catalogue, with a bound on the work: every pattern runs off the
 * request thread and is abandoned after PATTERN_BUDGET_MS (then it is 'too-slow').
 */
export async function selectRoutes(
  entries: readonly EndpointPattern[],
  catalogue: readonly CatalogueRoute[] = CATALOGUE,
): Promise<Selection[]> {
  const results: Selection[] = entries.map(() => ({ kind: 'unavailable', message: 'Not checked.' }));
  if (entries.length === 0) return results;
  const patterns = entries.map((e) => e.path);
  const paths = catalogue.map((r) => r.path);
  let from = 0;
  while (from < entries.length) {
    const { reached, failure } = await runFrom(patterns, paths, from, (i, a) => {
      const entry = entries[i];
      if (!entry) return;
      if (a.invalid !== undefined) {
        results[i] = {
          kind: 'invalid',
          message: `The path ${entry.path} is not a valid regular expression: ${a.invalid}`,
        };
        return;
      }
      const ids = (a.hits ?? [])
        .map((j) => catalogue[j])
        .filter((r): r is CatalogueRoute => r !== undefined && methodCovers(entry.method, r.method))
        .map((r) => r.id);
      results[i] = { kind: 'routes', ids };
    });
    if (reached >= entries.length) break;
    if (failure) {
      // The thread itself failed: nothing after this point was checked.
      for (let i = reached; i < entries.length; i += 1) results[i] = { kind: 'unavailable', message: failure };
      break;
    }
    results[reached] = { kind: 'too-slow' };
    from = reached + 1;
  }
  return results;
}

/** The message a refused entry gets at save time, or undefined when it selects at least one route. */
export function refusal(entry: EndpointPattern, selection: Selection): string | undefined {
  switch (selection.kind) {
    case 'invalid':
    case 'unavailable':
      return selection.message;
    case 'too-slow':
      return (
        `The path ${entry.path} takes too long to match the route catalogue (more than ${PATTERN_BUDGET_MS} ms): ` +
        'its repetitions overlap, as in (.|.)*. Write it without overlapping alternatives, or pick a route from the catalogue.'
      );
    case 'routes':
      if (selection.ids.length > 0) return undefined;
      return (
        `${entry.method.toUpperCase()} ${entry.path} selects no route. Patterns are matched against the route ` +
        'catalogue (GET /api/openapi.json), whose paths read like /api/role or /api/role/{name}; pick a route ' +
        'from it or change the method or the path.'
      );
  }
}
