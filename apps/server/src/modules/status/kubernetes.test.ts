import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../../test/harness.js';

/**
 * A STAND-IN for the Kubernetes API: no cluster can run on this machine (no container engine),
 * so this HTTP server answers the four REST calls Gatehouse makes with the shapes Kubernetes
 * uses, as `kubectl proxy` would expose them (GATEHOUSE_KUBERNETES_API).
 */
function standInApi() {
  const statefulsets = [
    {
      metadata: { name: 'gatehouse-server' },
      spec: {
        template: { spec: { containers: [{ name: 'server', image: 'registry.example/gatehouse/server:2.0.0' }] } },
      },
    },
  ];
  const pods = [
    {
      metadata: { name: 'gatehouse-server-0' },
      status: { phase: 'Running', containerStatuses: [{ ready: true, state: {} }] },
    },
    {
      metadata: { name: 'gatehouse-server-1' },
      status: {
        phase: 'Running',
        containerStatuses: [{ ready: false, state: { waiting: { reason: 'CrashLoopBackOff' } } }],
      },
    },
  ];
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'http://k8s');
    const json = (body: unknown, status = 200) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const isList = req.method === 'GET' && /\/(pods|statefulsets)$/.test(url.pathname);
    if (isList && !url.searchParams.get('labelSelector')?.includes('part-of=gatehouse'))
      return json({ kind: 'Status', message: 'no selector' }, 400);
    if (req.method === 'GET' && url.pathname === '/api/v1/namespaces/gatehouse/pods') return json({ items: pods });
    if (req.method === 'GET' && url.pathname === '/api/v1/namespaces/gatehouse/pods/gatehouse-server-1/log') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(`line one (tail ${url.searchParams.get('tailLines')})\nline two\n`);
    }
    if (req.method === 'GET' && url.pathname === '/apis/apps/v1/namespaces/gatehouse/statefulsets')
      return json({ items: statefulsets });
    if (req.method === 'PATCH' && url.pathname === '/apis/apps/v1/namespaces/gatehouse/statefulsets/gatehouse-server') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const patch = JSON.parse(body) as { spec: { template: { spec: { containers: { image: string }[] } } } };
        const image = patch.spec.template.spec.containers[0]?.image ?? '';
        (statefulsets[0] as (typeof statefulsets)[number]).spec.template.spec.containers[0]!.image = image;
        json(statefulsets[0]);
      });
      return;
    }
    json({ kind: 'Status', message: 'not found' }, 404);
  });
  return { server, seen };
}

describe('system status and versions in Kubernetes (stand-in API)', () => {
  let server: TestServer;
  let admin: string;
  const api = standInApi();
  beforeAll(async () => {
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    process.env.GATEHOUSE_KUBERNETES_API = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    process.env.GATEHOUSE_KUBERNETES_NAMESPACE = 'gatehouse';
    server = await startTestServer('pglite');
    admin = await server.login();
  });
  afterAll(async () => {
    delete process.env.GATEHOUSE_KUBERNETES_API;
    delete process.env.GATEHOUSE_KUBERNETES_NAMESPACE;
    await server.stop();
    api.server.close();
  });

  it('lists the pods of the cluster with their real state', async () => {
    const res = await server.call<{ pods: { name: string; status: string; detail: string }[] }>('GET', '/api/pods', {
      token: admin,
    });
    expect(res.body.pods).toMatchObject([
      { name: 'gatehouse-server-0', status: 'Running' },
      { name: 'gatehouse-server-1', status: 'Failed', detail: 'Running: CrashLoopBackOff' },
    ]);
    const counts = await server.call('GET', '/api/navigation/counts', { token: admin });
    expect(counts.body).toMatchObject({ systemStatusHealthSummary: 'Problem', totalUnhealthyPods: 1 });
  });

  it('answers a pod’s log through the API, and 404 for a pod that is not Gatehouse’s', async () => {
    const res = await server.call<{ pods: { name: string; logs: string[] }[] }>(
      'GET',
      '/api/pods/gatehouse-server-1/logs?limit=20',
      { token: admin },
    );
    expect(res.body.pods[0]).toMatchObject({ name: 'gatehouse-server-1', logs: ['line one (tail 20)', 'line two'] });
    expect((await server.call('GET', '/api/pods/kube-apiserver/logs', { token: admin })).status).toBe(404);
  });

  it('shows the StatefulSets’ image tags and rolls them to a new one', async () => {
    const before = await server.call<{ kubernetes: boolean; statefulsets: unknown[] }>('GET', '/api/versions', {
      token: admin,
    });
    expect(before.body).toMatchObject({
      kubernetes: true,
      statefulsets: [{ name: 'gatehouse-server', image: 'registry.example/gatehouse/server', tag: '2.0.0' }],
    });
    const res = await server.call('POST', '/api/version', {
      token: admin,
      body: { agent_version: '2.0.1', image_tag: '2.0.1' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: 'Configuration saved.',
      versions: { desired_agent_version: '2.0.1', statefulsets: [{ tag: '2.0.1' }] },
    });
    expect(api.seen).toContain('PATCH /apis/apps/v1/namespaces/gatehouse/statefulsets/gatehouse-server');
    expect(
      (await server.call('POST', '/api/version', { token: admin, body: { agent_version: 'bad tag!' } })).status,
    ).toBe(400);
  });
});

describe('versions outside Kubernetes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(async () => server.stop());

  it('show no StatefulSets and refuse an image tag', async () => {
    const token = await server.login();
    expect((await server.call('GET', '/api/versions', { token })).body).toMatchObject({
      server: '2.0.0',
      kubernetes: false,
      statefulsets: [],
      desired_agent_version: null,
    });
    const res = await server.call('POST', '/api/version', {
      token,
      body: { agent_version: '2.0.1', image_tag: '2.0.1' },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/Kubernetes only/);
    expect((await server.call('POST', '/api/version', { token, body: { agent_version: '2.0.1' } })).status).toBe(200);
  });
});
