/**
 * The API description (OpenAPI 3.1) generated from what the server really mounts: every route
 * of the given routers, its method and path, whether it needs a session (its chain holds the
 * auth step), and its request schema (the `core/domain` zod schema its `validate` step checks,
 * as JSON Schema by `z.toJSONSchema`). `API_CALLS` of the domain adds summaries and the schema
 * of a reply's `data` where there is one. Nothing is written by hand twice: a new route or a
 * changed schema shows up as it is.
 */
import type { Router } from '@koa/router';
import { z } from 'zod';
import { API_CALLS, ErrorCode } from '@decisio/domain';
import type { AppState } from '../../http/context';
import type { InputMiddleware } from '../../http/validate';

type Json = Record<string, unknown>;

/** JSON Schema of a zod schema as a request reads it (defaults optional); `{}` when it has no JSON form. */
export function jsonSchemaOf(schema: z.ZodType): Json {
  try {
    const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;
    delete out.$schema;
    return out;
  } catch {
    return {};
  }
}

const envelope = (data: Json): Json => ({
  type: 'object',
  required: ['code', 'data', 'message'],
  properties: {
    code: { type: 'integer', description: '0 on success, else a code of the error catalogue (components.schemas.ErrorCode)' },
    data,
    message: { type: 'string', description: "The code's message in the caller's language (Accept-Language: zh-CN or en-US)" },
    errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'Field errors of a 400: dotted path -> message' },
  },
});

const isInput = (m: unknown): m is InputMiddleware<unknown> => typeof m === 'function' && 'schema' in m && 'source' in m;

/** OpenAPI path of a koa path: `/api/x/:id` -> `/api/x/{id}`. */
const openApiPath = (p: string) => p.replace(/:(\w+)/g, '{$1}');

/** Options of {@link buildOpenApi}. */
export interface OpenApiOptions {
  version: string;
  /** The auth step of the route kit: a route whose chain holds it needs a session token. */
  auth: unknown;
}

/** The OpenAPI 3.1 document of `routers`. */
export function buildOpenApi(routers: ReadonlyArray<Router<AppState>>, options: OpenApiOptions): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const router of routers) {
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string' || layer.methods.length === 0) continue;
      const path = openApiPath(layer.path);
      const key = path.replace(/^\/api/, '');
      const input = layer.stack.find(isInput);
      const secured = layer.stack.includes(options.auth as never);
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
        const doc = API_CALLS[`${method} ${key}`];
        const op: Json = {
          operationId: `${method.toLowerCase()}${key.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
          tags: [key.split('/')[1] ?? 'api'],
          summary: doc?.summary ?? key,
          responses: {
            '200': { description: 'The envelope with `code: 0`', content: { 'application/json': { schema: envelope(doc?.reply ? jsonSchemaOf(doc.reply) : {}) } } },
            default: { description: 'An error of the catalogue (HTTP status by code)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
          },
        };
        if (secured) op.security = [{ session: [] }];
        if (input?.source === 'body' && method !== 'GET') op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(input.schema) } } };
        if (input?.source === 'query') {
          const props = (jsonSchemaOf(input.schema).properties ?? {}) as Record<string, Json>;
          const required = new Set(((jsonSchemaOf(input.schema).required ?? []) as string[]));
          op.parameters = Object.entries(props).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
        }
        (paths[path] ??= {})[method.toLowerCase()] = op;
      }
    }
  }
  paths['/api/decide/{serviceId}'] = {
    post: {
      operationId: 'postDecide',
      tags: ['decide'],
      summary: "A deployed policy's decisions: the access address of a running model service, authorised by its access token",
      parameters: [{ name: 'serviceId', in: 'path', required: true, schema: { type: 'string' } }],
      security: [{ accessToken: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'One input row, or `{ "inputs": [rows] }`' } } } },
      responses: { '200': { description: 'The decisions', content: { 'application/json': { schema: envelope({}) } } } },
    },
  };
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Decisio API',
      version: options.version,
      description:
        'Every call is POST with a JSON body (unless its method says otherwise) and answers the envelope `{code, data, message}`. ' +
        'Sign in with `index/signIn` and send its `accessToken` as the `Authorization` header. Follow any background work with ' +
        '`job/get`, `job/wait` or `job/events` by the `jobId` its create call answered (a model service by its id). Generated from the server\'s routes and the `core/domain` schemas.',
    },
    servers: [{ url: '/' }],
    paths: sorted,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The `accessToken` of `index/signIn` (or the `token` cookie)' },
        accessToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: "A model service's access token (`Bearer <token>` or the token)" },
      },
      schemas: {
        ErrorCode: { type: 'integer', enum: Object.values(ErrorCode), description: Object.entries(ErrorCode).map(([k, v]) => `${v} ${k}`).join(', ') },
        ErrorEnvelope: envelope({ type: 'null' }),
      },
    },
  };
}
