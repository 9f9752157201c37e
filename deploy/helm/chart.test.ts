// The Helm chart (issue 17): rendered with its default values and with values-ha.yaml (three
// replicas, PostgreSQL, Redis, S3), every document validated against the Kubernetes 1.33 schemas
// (kubernetes-models 4.5.1: the official OpenAPI definitions, with ajv) and, for fields no schema
// forbids (a typo is an unknown field, which the schemas allow), against the models' TypeScript
// types with excess-property checks. The committed plain manifests must equal the render; the probes
// must name routes of the contract table; every environment variable must be one the server reads.
//
// The renderer is deploy/helm/render (Go's text/template and Sprig, as Helm uses them), built here
// from Debian's packages: no helm binary is available from the registries this project may use
// (docs/adr/0009-chart-validation.md).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { routeList } from '@gatehouse/contracts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const chart = path.join(root, 'deploy/helm/gatehouse');
const haValues = path.join(chart, 'values-ha.yaml');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-chart-'));
const renderer = path.join(work, 'render');

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  env?: EnvVar[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  securityContext?: Record<string, unknown>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  ports?: { name: string; containerPort: number }[];
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: Record<string, unknown>;
  serviceAccountName?: string;
}

/** `helm template gatehouse deploy/helm/gatehouse -n gatehouse [-f …]`, as text. */
function render(...args: string[]): string {
  return execFileSync(renderer, ['-chart', chart, '-name', 'gatehouse', '-namespace', 'gatehouse', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function documents(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((d): d is K8sObject => d !== null);
}

function renderError(...args: string[]): string {
  try {
    render(...args);
  } catch (error) {
    return String((error as { stderr?: string }).stderr);
  }
  throw new Error('the render succeeded');
}

/** The kubernetes-models module and class of an object: apps/v1 StatefulSet → kubernetes-models/apps/v1. */
function modelPath(o: K8sObject): string {
  return `kubernetes-models/${o.apiVersion}`;
}

/** Validates against the OpenAPI schema (ajv); throws with every problem found. */
async function validateSchema(o: K8sObject): Promise<void> {
  const mod = (await import(modelPath(o))) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = mod[o.kind];
  if (!Model) throw new Error(`no Kubernetes model for ${o.apiVersion} ${o.kind}`);
  new Model(o).validate();
}

/**
 * Excess-property check: each object as a literal typed with its model's interface (IStatefulSet…),
 * compiled by TypeScript; an unknown field (a misspelt key, a field at the wrong level) is an error.
 */
function typeErrors(objects: K8sObject[]): string[] {
  const file = path.join(root, 'deploy/helm/__rendered__.ts');
  const lines = objects.map((o, i) => {
    return `import type { I${o.kind} as T${i} } from '${modelPath(o)}';\nexport const o${i}: T${i} = ${JSON.stringify(o)};`;
  });
  const source = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) =>
    path.resolve(name) === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, onError);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    .map((m) => m.slice(0, 400));
}

function statefulSet(objects: K8sObject[]): { spec: PodSpec; replicas: number } {
  const set = objects.find((o) => o.kind === 'StatefulSet');
  if (!set) throw new Error('no StatefulSet');
  const spec = set.spec as { replicas: number; template: { spec: PodSpec } };
  return { spec: spec.template.spec, replicas: spec.replicas };
}

function container(objects: K8sObject[]): Container {
  const c = statefulSet(objects).spec.containers[0];
  if (!c) throw new Error('no container');
  return c;
}

let defaults: { text: string; objects: K8sObject[] };
let ha: { text: string; objects: K8sObject[] };

beforeAll(() => {
  try {
    execFileSync('go', ['build', '-o', renderer, '.'], {
      cwd: path.join(root, 'deploy/helm/render'),
      env: {
        ...process.env,
        GOPATH: '/usr/share/gocode',
        GO111MODULE: 'off',
        GOFLAGS: '',
        GOCACHE: path.join(os.tmpdir(), 'gatehouse-chart-render', 'cache'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    throw new Error(
      `could not build deploy/helm/render (apt-get install golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v2-dev, as .ci/run does): ${String((error as { stderr?: unknown }).stderr ?? error)}`,
      { cause: error },
    );
  }
  const defaultText = render();
  const haText = render('-f', haValues);
  defaults = { text: defaultText, objects: documents(defaultText) };
  ha = { text: haText, objects: documents(haText) };
}, 120_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe.each([
  ['default values', () => defaults],
  ['values-ha.yaml', () => ha],
])('the chart rendered with %s', (_label, get) => {
  it('renders the objects of a release', () => {
    const kinds = get().objects.map((o) => o.kind);
    for (const kind of ['ServiceAccount', 'Role', 'RoleBinding', 'Service', 'StatefulSet', 'PodDisruptionBudget'])
      expect(kinds).toContain(kind);
  });

  it('validates every document against the Kubernetes 1.33 schemas', async () => {
    const failures: string[] = [];
    for (const o of get().objects) {
      try {
        await validateSchema(o);
      } catch (error) {
        failures.push(`${o.kind}/${o.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('has no field the Kubernetes types do not know', () => {
    expect(typeErrors(get().objects)).toEqual([]);
  }, 60_000);

  it('probes routes of the contract table: liveness and startup /api/health/live, readiness /api/health/ready', () => {
    const c = container(get().objects);
    const paths = new Set(routeList.filter((r) => r.method === 'GET').map((r) => r.path));
    const probes = [c.livenessProbe, c.readinessProbe, c.startupProbe].map((p) => p?.httpGet?.path);
    expect(probes).toEqual(['/api/health/live', '/api/health/ready', '/api/health/live']);
    for (const p of probes) expect(paths).toContain(p);
    for (const p of [c.livenessProbe, c.readinessProbe, c.startupProbe]) expect(p?.httpGet?.port).toBe('http');
    expect(c.ports?.find((p) => p.name === 'http')?.containerPort).toBe(8080);
  });

  it('sets only environment variables the server reads', () => {
    const c = container(get().objects);
    const sources = [
      'apps/server/src/config.ts',
      'apps/server/src/recordings/object-store.ts',
      'apps/server/src/recordings/signing-keys.ts',
      'apps/server/src/modules/status/kubernetes.ts',
    ]
      .map((f) => fs.readFileSync(path.join(root, f), 'utf8'))
      .join('\n');
    const names = (c.env ?? []).map((e) => e.name).filter((n) => n !== 'POD_IP');
    expect(names.length).toBeGreaterThan(8);
    for (const name of names) expect(sources, name).toMatch(new RegExp(`\\b${name}\\b`));
    // The downward API's pod address, for the other instances' relays.
    expect(c.env?.find((e) => e.name === 'POD_IP')?.valueFrom?.fieldRef?.fieldPath).toBe('status.podIP');
    expect(c.env?.find((e) => e.name === 'GATEHOUSE_ADVERTISE_URL')?.value).toBe('http://$(POD_IP):8080');
  });

  it('waits longer than the drain before killing a pod', () => {
    const { spec } = statefulSet(get().objects);
    const drain = Number(spec.containers[0]?.env?.find((e) => e.name === 'GATEHOUSE_DRAIN_SECONDS')?.value);
    expect(drain).toBeGreaterThan(0);
    // The server's own deadline is the drain plus STOP_GRACE_SECONDS (15 s, docs/deploy/server.md).
    expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(drain + 15);
  });

  it('runs as a numeric non-root user on a read-only root, every capability dropped, with requests and limits', () => {
    const { spec } = statefulSet(get().objects);
    const c = container(get().objects);
    expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
    expect(c.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(typeof c.resources?.requests?.cpu).toBe('string');
    expect(typeof c.resources?.requests?.memory).toBe('string');
    expect(typeof c.resources?.limits?.memory).toBe('string');
  });

  it('grants the service account only what kubernetes.ts calls, in its namespace', () => {
    const objects = get().objects;
    expect(objects.map((o) => o.kind)).not.toContain('ClusterRole');
    const role = objects.find((o) => o.kind === 'Role') as unknown as {
      rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
    };
    expect(role.rules).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['list'] },
    ]);
    const binding = objects.find((o) => o.kind === 'RoleBinding') as unknown as {
      subjects: { kind: string; name: string; namespace: string }[];
    };
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'gatehouse', namespace: 'gatehouse' }]);
    expect(statefulSet(objects).spec.serviceAccountName).toBe('gatehouse');
    // The server selects its pods by this label (GATEHOUSE_KUBERNETES_SELECTOR).
    const set = objects.find((o) => o.kind === 'StatefulSet') as unknown as {
      spec: { template: { metadata: { labels: Record<string, string> } } };
    };
    expect(set.spec.template.metadata.labels['app.kubernetes.io/part-of']).toBe('gatehouse');
    // GATEHOUSE_KUBERNETES_SELECTOR finds this release's pods and its StatefulSet (kubernetes.ts lists both by it).
    const selector = container(objects).env?.find((e) => e.name === 'GATEHOUSE_KUBERNETES_SELECTOR')?.value ?? '';
    const pairs = selector.split(',').map((p) => p.split('=') as [string, string]);
    expect(pairs.length).toBeGreaterThanOrEqual(2);
    const setLabels = objects.find((o) => o.kind === 'StatefulSet')?.metadata.labels ?? {};
    for (const [key, value] of pairs) {
      expect(set.spec.template.metadata.labels[key], key).toBe(value);
      expect(setLabels[key], key).toBe(value);
    }
  });

  it('exposes the SSH gateway on a LoadBalancer Service', () => {
    const ssh = get().objects.find((o) => o.kind === 'Service' && o.metadata.name === 'gatehouse-ssh');
    expect(ssh?.spec).toMatchObject({ type: 'LoadBalancer', ports: [{ name: 'ssh', port: 22, targetPort: 'ssh' }] });
  });
});

describe('the HA values', () => {
  it('run three replicas on PostgreSQL, Redis and S3 with every secret from a Secret', () => {
    const { replicas } = statefulSet(ha.objects);
    expect(replicas).toBe(3);
    const env = new Map((container(ha.objects).env ?? []).map((e) => [e.name, e]));
    for (const name of [
      'DATABASE_URL',
      'REDIS_URL',
      'GATEHOUSE_SECRET_KEY',
      'GATEHOUSE_CLUSTER_SECRET',
      'GATEHOUSE_S3_ACCESS_KEY_ID',
      'GATEHOUSE_S3_SECRET_ACCESS_KEY',
    ])
      expect(env.get(name)?.valueFrom?.secretKeyRef, name).toBeDefined();
    for (const name of ['GATEHOUSE_S3_BUCKET', 'GATEHOUSE_S3_REGION', 'GATEHOUSE_S3_ENDPOINT'])
      expect(env.get(name)?.value, name).toBeTruthy();
    expect(env.get('GATEHOUSE_RECORDING_KEY_FILE')?.value).toBe('/etc/gatehouse/recording-key/recording-key.pem');
    expect(env.get('GATEHOUSE_TRUST_PROXY')?.value).toBe('true');
    expect(env.get('GATEHOUSE_PUBLIC_URL')?.value).toBe('https://gatehouse.example.com');
    // No secret's value is in the rendered manifests, only references.
    expect(ha.text).not.toMatch(/postgres(ql)?:\/\/|redis:\/\/|BEGIN PRIVATE KEY/);
  });

  it('tell the operator where the console and the SSH gateway are (NOTES.txt)', () => {
    const notes = render('-notes', '-f', haValues);
    expect(notes).toContain('Console: https://gatehouse.example.com');
    expect(notes).toContain('get svc gatehouse-ssh');
  });

  it('put the Ingress behind TLS', () => {
    const ingress = ha.objects.find((o) => o.kind === 'Ingress');
    expect(ingress?.spec).toMatchObject({ tls: [{ hosts: ['gatehouse.example.com'], secretName: 'gatehouse-tls' }] });
  });

  it('keep nothing on a pod volume', () => {
    const set = ha.objects.find((o) => o.kind === 'StatefulSet');
    expect(set?.spec?.volumeClaimTemplates).toBeUndefined();
  });
});

describe('values the chart refuses', () => {
  it('several replicas without PostgreSQL, Redis, object storage or a shared secret key', () => {
    expect(renderError('-f', writeValues('replicaCount: 2\n'))).toMatch(/replicaCount > 1 needs PostgreSQL/);
    const partial = (omit: string) =>
      writeValues(
        fs
          .readFileSync(haValues, 'utf8')
          .replace(new RegExp(`^${omit}:\\n  existingSecret: .*$`, 'm'), `${omit}:\n  existingSecret: ''`),
      );
    expect(renderError('-f', partial('redis'))).toMatch(/needs Redis/);
    expect(renderError('-f', partial('secretKey'))).toMatch(/needs one secret key/);
    expect(renderError('-f', writeValues('server:\n  terminationExtraSeconds: 10\n'))).toMatch(/must exceed 15/);
  });
});

let written = 0;
function writeValues(text: string): string {
  const file = path.join(work, `values-${++written}.yaml`);
  fs.writeFileSync(file, text);
  return file;
}

describe('deploy/kubernetes', () => {
  it.each([
    ['gatehouse.yaml', () => defaults.text],
    ['gatehouse-ha.yaml', () => ha.text],
  ])('%s is the chart rendered (bash deploy/helm/render.sh writes it)', (file, text) => {
    const committed = fs.readFileSync(path.join(root, 'deploy/kubernetes', file), 'utf8');
    const body = committed.slice(committed.indexOf('\n---\n') + 1);
    expect(body).toBe(text());
  });
});

describe('the validation itself', () => {
  it('rejects a value of the wrong type (schema) and a misspelt field (types)', async () => {
    const set = (values: string) =>
      documents(render('-f', writeValues(values))).find((o) => o.kind === 'StatefulSet') as K8sObject;
    await expect(validateSchema(set("replicaCount: 'three'\n"))).rejects.toThrow(/replicas must be integer/);
    const misspelt = set('server:\n  extraEnv:\n    - name: LOG_LEVEL\n      valu: debug\n');
    await validateSchema(misspelt); // the schemas allow unknown fields: the types do not
    expect(typeErrors([misspelt]).join('\n')).toMatch(/known properties.*valu/);
  }, 60_000);
});
