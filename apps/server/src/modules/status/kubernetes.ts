import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';

/** Where the service account of a pod keeps its token, CA and namespace. */
const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

/** How to reach the Kubernetes API. */
export interface KubernetesTarget {
  /** https://host:port in a cluster; http://127.0.0.1:8001 through `kubectl proxy`. */
  url: string;
  namespace: string;
  token?: string;
  ca?: string;
  /** Label selector of Gatehouse's own objects. */
  selector: string;
}

/**
 * The Kubernetes API, when Gatehouse runs in a cluster (its service account) or is pointed at one
 * with GATEHOUSE_KUBERNETES_API (for example `kubectl proxy`); undefined otherwise.
 */
export function kubernetesTarget(env: NodeJS.ProcessEnv, root = SERVICE_ACCOUNT): KubernetesTarget | undefined {
  const selector = env.GATEHOUSE_KUBERNETES_SELECTOR ?? 'app.kubernetes.io/part-of=gatehouse';
  if (env.GATEHOUSE_KUBERNETES_API) {
    return {
      url: env.GATEHOUSE_KUBERNETES_API.replace(/\/+$/, ''),
      namespace: env.GATEHOUSE_KUBERNETES_NAMESPACE ?? 'default',
      selector,
    };
  }
  const host = env.KUBERNETES_SERVICE_HOST;
  if (!host || !fs.existsSync(`${root}/token`)) return undefined;
  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${env.KUBERNETES_SERVICE_PORT ?? '443'}`,
    namespace: fs.readFileSync(`${root}/namespace`, 'utf8').trim(),
    token: fs.readFileSync(`${root}/token`, 'utf8').trim(),
    ca: fs.readFileSync(`${root}/ca.crt`, 'utf8'),
    selector,
  };
}

interface PodObject {
  metadata?: { name?: string };
  status?: {
    phase?: string;
    containerStatuses?: {
      ready?: boolean;
      state?: { waiting?: { reason?: string }; terminated?: { reason?: string } };
    }[];
  };
}

interface StatefulSetObject {
  metadata?: { name?: string };
  spec?: { template?: { spec?: { containers?: { name?: string; image?: string }[] } } };
}

/** A pod as the status screen shows it: Running only when its phase is Running and every container is ready. */
export function podStatus(pod: PodObject): { status: 'Running' | 'Failed' | 'Unknown'; detail: string } {
  const phase = pod.status?.phase ?? 'Unknown';
  const containers = pod.status?.containerStatuses ?? [];
  const notReady = containers.filter((c) => !c.ready);
  const reason = notReady.map((c) => c.state?.waiting?.reason ?? c.state?.terminated?.reason).find(Boolean);
  if (phase === 'Running' && notReady.length === 0)
    return { status: 'Running', detail: `${containers.length} containers ready` };
  if (phase === 'Pending' || phase === 'Unknown')
    return { status: 'Unknown', detail: reason ? `${phase}: ${reason}` : phase };
  return {
    status: 'Failed',
    detail: reason ? `${phase}: ${reason}` : `${phase}: ${notReady.length} containers not ready`,
  };
}

/** The few Kubernetes calls the status screen and the version tags need. */
export class KubernetesClient {
  constructor(readonly target: KubernetesTarget) {}

  private request(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<string> {
    const url = new URL(`${this.target.url}${path}`);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.request(
        url,
        {
          method,
          ca: this.target.ca,
          timeout: 5000,
          headers: {
            accept: 'application/json',
            ...(this.target.token ? { authorization: `Bearer ${this.target.token}` } : {}),
            ...(payload ? { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => {
            const text = Buffer.concat(parts).toString('utf8');
            if ((res.statusCode ?? 500) >= 300) {
              let message = text.slice(0, 200);
              try {
                message = (JSON.parse(text) as { message?: string }).message ?? message;
              } catch {
                // Not JSON: keep the text.
              }
              reject(new Error(`Kubernetes answered ${res.statusCode}: ${message}`));
            } else resolve(text);
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('Kubernetes did not answer within 5 s')));
      req.on('error', reject);
      req.end(payload);
    });
  }

  private ns(path: string): string {
    return `/namespaces/${encodeURIComponent(this.target.namespace)}${path}`;
  }

  /** Gatehouse's pods with their state. */
  async pods() {
    const text = await this.request(
      'GET',
      `/api/v1${this.ns('/pods')}?labelSelector=${encodeURIComponent(this.target.selector)}`,
    );
    const items = (JSON.parse(text) as { items?: PodObject[] }).items ?? [];
    return items
      .filter((p) => p.metadata?.name)
      .map((p) => ({ name: p.metadata?.name as string, ...podStatus(p) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The last lines a pod logged. */
  async logs(name: string, tail: number): Promise<string[]> {
    const text = await this.request(
      'GET',
      `/api/v1${this.ns(`/pods/${encodeURIComponent(name)}/log`)}?tailLines=${tail}`,
    );
    return text.split('\n').filter(Boolean);
  }

  /** Gatehouse's StatefulSets and the image tag of their first container. */
  async statefulsets(): Promise<{ name: string; image: string; tag: string }[]> {
    const text = await this.request(
      'GET',
      `/apis/apps/v1${this.ns('/statefulsets')}?labelSelector=${encodeURIComponent(this.target.selector)}`,
    );
    const items = (JSON.parse(text) as { items?: StatefulSetObject[] }).items ?? [];
    return items.map((s) => {
      const image = s.spec?.template?.spec?.containers?.[0]?.image ?? '';
      const at = image.lastIndexOf(':');
      const tagged = at > image.lastIndexOf('/');
      return {
        name: s.metadata?.name ?? '',
        image: tagged ? image.slice(0, at) : image,
        tag: tagged ? image.slice(at + 1) : 'latest',
      };
    });
  }

  /** Rolls every StatefulSet's first container to a new image tag (a strategic merge patch). */
  async setImageTag(tag: string): Promise<void> {
    const text = await this.request(
      'GET',
      `/apis/apps/v1${this.ns('/statefulsets')}?labelSelector=${encodeURIComponent(this.target.selector)}`,
    );
    const items = (JSON.parse(text) as { items?: StatefulSetObject[] }).items ?? [];
    for (const set of items) {
      const container = set.spec?.template?.spec?.containers?.[0];
      if (!set.metadata?.name || !container?.name || !container.image) continue;
      const at = container.image.lastIndexOf(':');
      const repository = at > container.image.lastIndexOf('/') ? container.image.slice(0, at) : container.image;
      await this.request(
        'PATCH',
        `/apis/apps/v1${this.ns(`/statefulsets/${encodeURIComponent(set.metadata.name)}`)}`,
        { spec: { template: { spec: { containers: [{ name: container.name, image: `${repository}:${tag}` }] } } } },
        'application/strategic-merge-patch+json',
      );
    }
  }
}
