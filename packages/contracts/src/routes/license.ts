import { z } from 'zod';
import { defineRoute } from '../route.js';
import { Timestamp } from './common.js';

/** The licence as the console reads it (spec §3 Licence). */
export const License = z
  .object({
    status: z.enum(['valid', 'expired', 'missing']),
    customer: z.string().nullable(),
    expires: Timestamp.nullable().describe("UTC; null when there is no licence (the console shows 'Missing License')"),
    issued_at: Timestamp.nullable(),
    license_id: z.string().nullable(),
    max_agents: z.number().int().nullable().describe('Enrolled agents allowed; null: no limit'),
    agents_used: z.number().int(),
    development: z.boolean().describe('Signed with the development key (tests and demos only)'),
  })
  .meta({ id: 'License' });

export const getLicense = defineRoute({
  id: 'license.get',
  method: 'GET',
  path: '/api/license',
  tag: 'settings',
  summary:
    'The installed licence: customer, expiry (UTC) and limits. Every signed-in user may read it (for the notice).',
  access: { kind: 'signed-in' },
  response: License,
});

export const saveLicense = defineRoute({
  id: 'license.save',
  method: 'POST',
  path: '/api/license',
  tag: 'settings',
  summary:
    'Install a licence: a token signed with Ed25519 by the vendor. Forged, expired or malformed licences are refused ' +
    'with the reason.',
  access: { kind: 'permissions', anyOf: ['manage-license'] },
  body: z.strictObject({
    license: z
      .string({ error: 'license is the licence text' })
      .trim()
      .min(1, 'Paste the licence text')
      .max(8192, 'A licence is at most 8192 characters'),
  }),
  response: z.object({ message: z.string(), license: License }),
  errors: { 400: 'Malformed, forged or expired licence' },
});

/** The ingress certificate as the console reads it (spec §3 Ingress certificate). */
export const IngressCertificate = z
  .object({
    installed: z.boolean(),
    issuer: z.string().nullable(),
    subject: z.string().nullable(),
    subject_alternative_names: z.array(z.string()),
    valid_from: Timestamp.nullable(),
    valid_to: Timestamp.nullable(),
    days_until_expiry: z.number().int().nullable(),
    fingerprint_sha256: z.string().nullable(),
    https_port: z.number().int().nullable().describe('Where this server serves HTTPS with it; null when it does not'),
  })
  .meta({ id: 'IngressCertificate' });

export const getIngressTls = defineRoute({
  id: 'ingress-tls.get',
  method: 'GET',
  path: '/api/ingress-tls',
  tag: 'settings',
  summary: 'The certificate the server serves HTTPS with (never its private key).',
  access: { kind: 'signed-in' },
  response: IngressCertificate,
});

export const saveIngressTls = defineRoute({
  id: 'ingress-tls.save',
  method: 'POST',
  path: '/api/ingress-tls',
  tag: 'settings',
  summary:
    'Install a PEM certificate chain (leaf first) and its private key. Refused: a key that does not match, an expired ' +
    'or not yet valid certificate, or text that is not PEM. Every server instance switches to it within seconds, ' +
    'without a restart.',
  access: { kind: 'permissions', anyOf: ['manage-license'] },
  body: z.strictObject({
    certificate: z
      .string({ error: 'certificate is the PEM chain' })
      .trim()
      .min(1, 'Paste the certificate chain (PEM)')
      .max(64 * 1024, 'The certificate chain is at most 64 KiB'),
    private_key: z
      .string({ error: 'private_key is the PEM private key' })
      .trim()
      .min(1, 'Paste the private key (PEM)')
      .max(16 * 1024, 'The private key is at most 16 KiB'),
  }),
  response: z.object({ message: z.string(), certificate: IngressCertificate }),
  errors: { 400: 'Not PEM, key mismatch, expired or not yet valid' },
});

/** Versions of the running components and the agent version the server asks for. */
export const Versions = z
  .object({
    server: z.string(),
    console: z.string(),
    build_number: z.string(),
    agents: z.array(z.object({ version: z.string(), count: z.number().int() })),
    desired_agent_version: z.string().nullable(),
    kubernetes: z.boolean().describe('Whether the server runs in a Kubernetes cluster'),
    statefulsets: z.array(z.object({ name: z.string(), image: z.string(), tag: z.string() })),
  })
  .meta({ id: 'Versions' });

export const getVersions = defineRoute({
  id: 'versions.get',
  method: 'GET',
  path: '/api/versions',
  tag: 'settings',
  summary: 'Versions of the components (server, console, the agents seen) and the desired agent version tag.',
  access: { kind: 'signed-in' },
  response: Versions,
});

export const saveVersion = defineRoute({
  id: 'versions.save',
  method: 'POST',
  path: '/api/version',
  tag: 'settings',
  summary:
    'Set the desired agent version tag (and, in Kubernetes, the StatefulSets’ image tag). Agents report their version ' +
    'and the console flags those that differ.',
  access: { kind: 'permissions', anyOf: ['manage-kubernetes'] },
  body: z.strictObject({
    agent_version: z
      .string({ error: 'agent_version is a version tag such as 2.0.1' })
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'agent_version must be a tag such as 2.0.1 (letters, digits, . _ -)'),
    image_tag: z
      .string({ error: 'image_tag is an image tag such as 2.0.1' })
      .trim()
      .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/, 'image_tag must be an image tag such as 2.0.1')
      .optional()
      .describe('In Kubernetes: roll Gatehouse’s StatefulSets to this image tag'),
  }),
  response: z.object({ message: z.string(), versions: Versions }),
});
