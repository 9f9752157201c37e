import { z } from 'zod';
import { BUILD, TOKEN_HEADER } from './limits.js';
import { PERMISSION_DESCRIPTIONS } from './permissions.js';
import { ErrorBody, type RouteContract } from './route.js';

type JsonObject = Record<string, unknown>;

function schemaOf(type: z.ZodType, io: 'input' | 'output'): JsonObject {
  return z.toJSONSchema(type, { io, unrepresentable: 'any', target: 'openapi-3.0' });
}

function accessText(route: RouteContract): string {
  switch (route.access.kind) {
    case 'public':
      return 'No token needed.';
    case 'signed-in':
      return 'Any valid token.';
    case 'admin-role':
      return 'Holders of the admin role.';
    case 'permissions':
      return `Needs one of: ${route.access.anyOf.join(', ')}.${route.access.ticket ? ' A media ticket in ?ticket= may stand in for the token.' : ''}`;
    case 'agent':
      return 'An enrolled agent, by its identity headers (x-gatehouse-agent-id, x-gatehouse-agent-credential).';
  }
}

function parameters(route: RouteContract): JsonObject[] {
  const out: JsonObject[] = [];
  for (const [where, type] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!type) continue;
    const schema = schemaOf(type, 'input');
    const props = (schema.properties ?? {}) as Record<string, JsonObject>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop });
    }
  }
  return out;
}

/** Builds the OpenAPI 3.0 document of the API from the route table. */
export function buildOpenApi(routeList: readonly RouteContract[], buildTag: string): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  const errorSchema = schemaOf(ErrorBody, 'output');
  for (const route of routeList) {
    const responses: JsonObject = {
      [String(route.status ?? 200)]: {
        description: 'Success',
        content:
          route.raw && route.method === 'GET'
            ? { [route.raw]: { schema: { type: 'string', format: 'binary' } } }
            : { 'application/json': { schema: schemaOf(route.response, 'output') } },
      },
    };
    const errors: Record<number, string> = { 400: 'Malformed or invalid input', ...route.errors };
    if (route.access.kind !== 'public') {
      errors[401] = 'Missing, invalid or expired token';
      if (route.access.kind !== 'signed-in') errors[403] = 'The token’s holder lacks the permission';
    }
    for (const [status, description] of Object.entries(errors)) {
      responses[status] = { description, content: { 'application/json': { schema: errorSchema } } };
    }
    const operation: JsonObject = {
      operationId: route.id,
      summary: route.summary,
      description: accessText(route),
      tags: [route.tag],
      parameters: parameters(route),
      responses,
      ...(route.access.kind === 'public' ? { security: [] } : {}),
      ...(route.access.kind === 'permissions' ? { 'x-permissions': route.access.anyOf } : {}),
    };
    if (route.raw && route.method !== 'GET') {
      operation.requestBody = {
        required: true,
        content: { [route.raw]: { schema: { type: 'string', format: 'binary' } } },
      };
    } else if (route.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
      };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Gatehouse API',
      version: BUILD.version,
      description: `Build ${BUILD.buildNumber} (${buildTag}). Authenticate with the Authentication-Token header (x-auth-token is accepted too). Permissions: ${Object.entries(
        PERMISSION_DESCRIPTIONS,
      )
        .map(([p, d]) => `${p} (${d})`)
        .join('; ')}.`,
    },
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: TOKEN_HEADER } },
    },
    security: [{ token: [] }],
    paths,
  };
}
