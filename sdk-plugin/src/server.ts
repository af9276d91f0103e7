/**
 * `@decisio/sdk-plugin/server`: the contract of a server plugin.
 *
 * A server plugin adds API calls, database migrations, job kinds, seed data (with data files)
 * and industry templates (data file, decision graph, reward, report renderer) to the Decisio
 * server without touching its code. The server finds the plugins under `plugins/*` whose
 * `package.json` names a server entry (`"decisio": { "server": "./server/index.ts" }`, exporting
 * `serverPlugin`), and loads them with those it is given (`createApp(config, { plugins })`):
 * routes are mounted under `/api/`, migrations are appended to the migration history after the
 * core ones (named `<pluginId>/<migrationName>`), seeds run once each after the plugin's
 * migrations, and templates join `template/getTemplateList` and `template/createProject`.
 * See `sdk-plugin/README.md` ("Server plugins and industry templates") for a worked example.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { defineServerPlugin } from '@decisio/sdk-plugin/server';
 *
 * export const notesPlugin = defineServerPlugin({
 *   id: 'acme.notes',
 *   migrations: [
 *     {
 *       name: '20261201000000_create_acme_notes',
 *       up: (knex) => knex.schema.createTable('acme_notes', (t) => {
 *         t.string('id', 32).primary();
 *         t.string('tenant_id', 32).notNullable();
 *         t.string('text', 200).notNullable();
 *       }),
 *       down: (knex) => knex.schema.dropTable('acme_notes'),
 *     },
 *   ],
 *   routes(router, ctx) {
 *     const body = ctx.validate(z.object({ text: z.string().max(200) }));
 *     router.post('/acmeNotes/create', ctx.auth, body, async (call) => {
 *       const { text } = body.input(call);
 *       const id = ctx.newId();
 *       await call.db('acme_notes').insert({ id, tenant_id: call.user!.tenantId, text });
 *       return { id };
 *     });
 *   },
 * });
 * ```
 */
import type { Knex } from 'knex';
import type { z } from 'zod';
import { importReviveYaml, LIMITS, TAG_COLOURS, TEMPLATE_ID_MAX, TEMPLATE_ID_PATTERN, type DecisionGraph, type TagColour, type TemplateReport, type TemplateText } from '@decisio/domain';

export type { TemplateReport, TemplateReportFigure, TemplateText } from '@decisio/domain';

/** The signed-in user of a call, as the server resolved it from the session token. */
export interface ServerCallUser {
  /** 32-hex id. */
  id: string;
  username: string;
  tenantId: string;
  /** Codes of the user's roles (at least one). */
  roles: string[];
  /** Permissions granted by those roles; `'*'` means every permission. */
  permissions: string[];
  /** True when one of the roles is a system role. */
  isSystemRole: boolean;
}

/** What a plugin's route handler receives for one call. */
export interface ServerCall {
  /** Parsed JSON body (`{}` when there is none). Read validated input with `guard.input(call)`. */
  body: unknown;
  /** Query-string parameters. */
  query: Record<string, string | string[] | undefined>;
  /** Named path parameters (`/notes/:id`). */
  params: Record<string, string>;
  /** The caller; `null` unless the route is behind `ctx.auth`. */
  user: ServerCallUser | null;
  /** Id of the request, echoed in the `RequestId` response header and the system log. */
  requestId: string;
  /** Language of the reply messages. */
  locale: 'zh-CN' | 'en-US';
  /**
   * The database; inside a route behind `ctx.transaction` this is the call's transaction. Plugins
   * own only their tables and must scope every query by `user.tenantId`.
   */
  db: Knex;
}

/**
 * Handles a call. The value it returns becomes `data` of the `{code: 0, data, message}` reply;
 * throw `AppError` (from `@decisio/domain`) to answer with a catalogue code.
 */
export type ServerHandler = (call: ServerCall) => unknown | Promise<unknown>;

/** A step of a route chain provided by the host (auth, tenant scope, permission, transaction). */
export interface ServerGuard {
  /** Brand: guards are created by the host only. */
  readonly kind: 'guard';
  /** Readable name, e.g. `auth` or `permission:users:read`. */
  readonly name: string;
}

/** A guard that validates the body (or query) with a zod schema and hands back typed input. */
export interface ServerInputGuard<T> extends ServerGuard {
  /** The validated input of a call that passed this guard. */
  input(call: ServerCall): T;
}

/**
 * Registers routes. Paths are relative to `/api/` (`'/acmeNotes/list'` answers
 * `/api/acmeNotes/list`). Each route is a chain: guards first, the handler last.
 */
export interface ServerRouter {
  get(path: string, ...chain: [...ServerGuard[], ServerHandler]): void;
  post(path: string, ...chain: [...ServerGuard[], ServerHandler]): void;
  put(path: string, ...chain: [...ServerGuard[], ServerHandler]): void;
  delete(path: string, ...chain: [...ServerGuard[], ServerHandler]): void;
}

/** What the host gives a plugin's `routes` function. */
export interface ServerPluginContext {
  /** Requires a valid session token; answers 401/403 codes of the catalogue otherwise. */
  readonly auth: ServerGuard;
  /** Requires the caller's tenant to exist (`tenantNotExists`); put after `auth`. */
  readonly tenant: ServerGuard;
  /** Runs the rest of the chain in one database transaction (`call.db` is the transaction). */
  readonly transaction: ServerGuard;
  /** Requires a permission of the caller's roles (`userNotPermission`, HTTP 403); after `auth`. */
  requirePermission(permission: string): ServerGuard;
  /**
   * Validates the JSON body (or, with `'query'`, the query string) with a zod schema; a failure
   * answers `paramInvalid` with translated field errors.
   */
  validate<S extends z.ZodType>(schema: S, source?: 'body' | 'query'): ServerInputGuard<z.output<S>>;
  /** A new 32-hex id. */
  newId(): string;
  /** The server's logger, tagged with the plugin id. */
  readonly log: {
    info(msg: string, fields?: Record<string, unknown>): void;
    warn(msg: string, fields?: Record<string, unknown>): void;
    error(msg: string, fields?: Record<string, unknown>): void;
  };
}

/**
 * A schema or data change of the plugin's own tables. Never change a migration once released;
 * add a new one. It must run on SQLite and MySQL/MariaDB.
 */
export interface ServerMigration {
  /** Unique within the plugin, sortable: `YYYYMMDDHHMMSS_<verb>_<noun>`. */
  name: string;
  up(knex: Knex): Promise<unknown> | PromiseLike<unknown>;
  down?(knex: Knex): Promise<unknown> | PromiseLike<unknown>;
}

/** A CSV data file as the host parsed it: the header and the rows' cells (text as written). */
export interface ServerCsv {
  columns: string[];
  rows: string[][];
}

/**
 * The data files a seed declared (`files`), read by the host (a plugin needs no file-system
 * access of its own).
 */
export interface ServerSeedFiles {
  /** The file's bytes. @throws Error for a name the seed did not declare. */
  bytes(name: string): Promise<Uint8Array>;
  /** The file as UTF-8 text. */
  text(name: string): Promise<string>;
  /**
   * The file as CSV (comma-separated, first line the header, no quoted cells).
   * @throws Error when a row has another number of cells than the header.
   */
  csv(name: string): Promise<ServerCsv>;
}

/** Seed data inserted once, after the plugin's migrations, possibly from data files of the plugin. */
export interface ServerSeed {
  /** Unique within the plugin. */
  name: string;
  /**
   * Data files the seed reads, by name: `new URL('./data/rows.csv', import.meta.url)` (file URLs,
   * shipped in the plugin's folder).
   */
  files?: Record<string, URL>;
  run(knex: Knex, files: ServerSeedFiles): Promise<unknown> | PromiseLike<unknown>;
}

/** A template's table as the host read it from its data file, for the report renderer. */
export interface ServerTemplateTable extends ServerCsv {
  /** A column's cells as numbers (`NaN` where a cell is not a number). @throws Error for an unknown column. */
  numbers(column: string): number[];
  /** Row ranges `[start, end)` of each trajectory, in file order (rows of one trajectory are contiguous). */
  trajectories: { id: string; start: number; end: number }[];
}

/**
 * A template's report renderer: measures, on the template's own data, the results the template
 * shows in the template centre (e.g. the logged controller's mean reward per step). It must only
 * compute from `table`: no figure may be typed in. Called once per server process, lazily.
 */
export type ServerTemplateReportRenderer = (table: ServerTemplateTable) => TemplateReport;

/**
 * An industry template: what `template/createProject` seeds into a new project's first solution
 * (the data file as an uploaded CSV and a dataset, the table correlation, the decision graph and
 * the reward), and what the template centre previews.
 */
export interface ServerTemplateDefinition {
  /** Unique across the server's plugins: {@link TEMPLATE_ID_PATTERN}, at most 32 characters. */
  id: string;
  /** Industry of the template centre's filter, kebab-case (`electric`, `coupon`, `retail`). */
  industry: string;
  /** The industry's name on the template centre's tab. */
  industryName: TemplateText;
  /** Shown in the template centre (≤ 200 characters: it becomes the project's description). */
  name: TemplateText;
  description: TemplateText;
  /** Default name of the project (≤ 20), its solution (≤ 50), dataset (≤ 30) and reward (≤ 20); numbered when taken. */
  projectName: TemplateText;
  solutionName: TemplateText;
  datasetName: TemplateText;
  rewardName: TemplateText;
  /** ≤ 200 characters. */
  rewardDescription: TemplateText;
  colour: TagColour;
  /** What it is made from, shown as is (default: the plugin id). */
  task?: string;
  /**
   * The table: a CSV data file of the plugin (header line first, comma-separated, no quoted
   * cells), one row per step, rows of a trajectory together; and its key columns.
   */
  data: { file: URL; trajectoryField: string; sequenceField: string; datetimeField: string };
  /** The decision graph as REVIVE YAML (`metadata.graph` + `metadata.columns`); exactly one agent node. */
  graph: string;
  /** `reward.py` with `get_reward(data)` (numpy arrays `[batch, dim]` by node name, original units). */
  reward: string;
  /** Measures the results the template centre shows; without it the centre says "not measured". */
  report?: ServerTemplateReportRenderer;
}

/** A checked template: the definition plus its parsed graph. */
export interface ServerTemplate extends Readonly<ServerTemplateDefinition> {
  /** The graph parsed from {@link ServerTemplateDefinition.graph}. */
  readonly graphDocument: DecisionGraph;
  /** Name of the agent node the policy decides. */
  readonly agent: string;
  /** The table's columns of the agent node (what the policy decides). */
  readonly decisionFields: readonly string[];
}

/** Context of one job run. */
export interface ServerJobContext {
  jobId: string;
  /** Aborted when the job is stopped; handlers must return promptly. */
  signal: AbortSignal;
  /** Reports progress in [0, 1] and optional metrics. */
  report(progress: number, metrics?: Record<string, number>): void;
}

/** A kind of background job the plugin can run (training steps, imports, scheduled work). */
export interface ServerJobKind {
  /** Namespaced, e.g. `acme.notes.reindex`. */
  kind: string;
  description?: string;
  run(payload: unknown, job: ServerJobContext): Promise<unknown>;
}

/** The definition of a server plugin, as written by its author. */
export interface ServerPluginDefinition {
  /** Namespaced and stable: lower-case words separated by dots, e.g. `acme.notes`. */
  id: string;
  routes?(router: ServerRouter, ctx: ServerPluginContext): void;
  migrations?: ServerMigration[];
  jobKinds?: ServerJobKind[];
  seeds?: ServerSeed[];
  /** Industry templates offered in the template centre. */
  templates?: ServerTemplateDefinition[];
}

/** A checked, frozen server plugin, ready to give to the server. */
export interface ServerPlugin {
  readonly id: string;
  readonly routes: ((router: ServerRouter, ctx: ServerPluginContext) => void) | null;
  readonly migrations: readonly ServerMigration[];
  readonly jobKinds: readonly ServerJobKind[];
  readonly seeds: readonly ServerSeed[];
  /** Checked templates (empty when the plugin has none). */
  readonly templates: readonly ServerTemplate[];
}

const PLUGIN_ID = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;
const MIGRATION_NAME = /^\d{14}_[a-z0-9_]+$/;

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const TEMPLATE_NAME_LIMITS: [keyof ServerTemplateDefinition, number][] = [
  ['name', LIMITS.projectInfoMax],
  ['projectName', LIMITS.projectNameMax],
  ['solutionName', LIMITS.solutionNameMax],
  ['datasetName', LIMITS.datasetNameMax],
  ['rewardName', LIMITS.rewardNameMax],
  ['rewardDescription', LIMITS.descriptionMax],
];

/** Checks one template definition and parses its graph. */
function checkTemplate(pluginId: string, t: ServerTemplateDefinition): ServerTemplate {
  const where = `Server plugin "${pluginId}", template "${t.id}"`;
  if (!TEMPLATE_ID_PATTERN.test(t.id) || t.id.length > TEMPLATE_ID_MAX) throw new Error(`${where}: the id must be kebab-case, at most ${TEMPLATE_ID_MAX} characters`);
  if (!KEBAB.test(t.industry)) throw new Error(`${where}: the industry must be kebab-case`);
  if (!(TAG_COLOURS as readonly string[]).includes(t.colour)) throw new Error(`${where}: unknown colour "${t.colour}"`);
  for (const key of ['industryName', 'name', 'description', 'projectName', 'solutionName', 'datasetName', 'rewardName', 'rewardDescription'] as const) {
    for (const locale of ['zh-CN', 'en-US'] as const) {
      if (!t[key]?.[locale]?.trim()) throw new Error(`${where}: ${key} needs text in ${locale}`);
    }
  }
  for (const [key, max] of TEMPLATE_NAME_LIMITS) {
    for (const [locale, text] of Object.entries(t[key] as TemplateText)) {
      if (text.length > max) throw new Error(`${where}: ${key} (${locale}) is longer than ${max} characters`);
    }
  }
  if (!(t.data?.file instanceof URL)) throw new Error(`${where}: data.file must be a URL (new URL('./data/x.csv', import.meta.url))`);
  if (!/def\s+get_reward\s*\(/.test(t.reward)) throw new Error(`${where}: the reward must define get_reward(data)`);
  let graph: DecisionGraph;
  try {
    graph = importReviveYaml(t.graph).graph;
  } catch (err) {
    throw new Error(`${where}: the graph is not valid REVIVE YAML (${err instanceof Error ? err.message : String(err)})`);
  }
  const agents = graph.nodes.filter((n) => n.role === 'agent');
  if (agents.length !== 1) throw new Error(`${where}: the graph needs exactly one agent node (found ${agents.length})`);
  const agent = agents[0]!;
  return Object.freeze({ ...t, graphDocument: graph, agent: agent.name, decisionFields: Object.freeze(agent.fields.map((f) => f.name)) });
}

function assertUnique(pluginId: string, what: string, names: string[]): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new Error(`Server plugin "${pluginId}": duplicate ${what} "${n}"`);
    seen.add(n);
  }
}

/**
 * Checks and freezes a server plugin definition.
 *
 * @throws Error when the id is not namespaced lower-case words, a migration name is not
 *   `YYYYMMDDHHMMSS_<verb>_<noun>`, migrations are not in ascending order, a migration, seed,
 *   job kind or template id is duplicated, a seed's file is not a URL, or a template is
 *   malformed (id, industry, colour, texts missing or over their limits, data file not a URL,
 *   reward without `get_reward`, graph not REVIVE YAML or without exactly one agent node).
 */
export function defineServerPlugin(definition: ServerPluginDefinition): ServerPlugin {
  const { id } = definition;
  if (!PLUGIN_ID.test(id)) {
    throw new Error(`Server plugin id "${id}" must be lower-case words separated by dots, e.g. "acme.notes"`);
  }
  const migrations = [...(definition.migrations ?? [])];
  for (const m of migrations) {
    if (!MIGRATION_NAME.test(m.name)) {
      throw new Error(`Server plugin "${id}": migration "${m.name}" must be named YYYYMMDDHHMMSS_<verb>_<noun>`);
    }
  }
  const names = migrations.map((m) => m.name);
  if (names.some((n, i) => i > 0 && n < names[i - 1]!)) {
    throw new Error(`Server plugin "${id}": migrations must be listed in ascending order`);
  }
  assertUnique(id, 'migration', names);
  const seeds = [...(definition.seeds ?? [])];
  assertUnique(id, 'seed', seeds.map((s) => s.name));
  for (const s of seeds) {
    for (const [name, url] of Object.entries(s.files ?? {})) {
      if (!(url instanceof URL)) throw new Error(`Server plugin "${id}": file "${name}" of seed "${s.name}" must be a URL`);
    }
  }
  const jobKinds = [...(definition.jobKinds ?? [])];
  assertUnique(id, 'job kind', jobKinds.map((j) => j.kind));
  const templates = (definition.templates ?? []).map((t) => checkTemplate(id, t));
  assertUnique(id, 'template', templates.map((t) => t.id));
  return Object.freeze({
    id,
    routes: definition.routes ?? null,
    migrations: Object.freeze(migrations),
    jobKinds: Object.freeze(jobKinds),
    seeds: Object.freeze(seeds),
    templates: Object.freeze(templates),
  });
}

/**
 * Text in both languages from a plugin's locale bundles (the same `locales/zh-CN.json` and
 * `locales/en-US.json` its client manifest registers), with `{{name}}` placeholders filled.
 *
 * @example
 * ```ts
 * import zhCN from '../locales/zh-CN.json';
 * import enUS from '../locales/en-US.json';
 * const name = templateText({ 'zh-CN': zhCN, 'en-US': enUS }, 'template.name');
 * ```
 * @throws Error when the key is missing or not a string in a language.
 */
export function templateText(bundles: Record<'zh-CN' | 'en-US', Record<string, unknown>>, key: string, params: Record<string, string | number> = {}): TemplateText {
  const pick = (locale: 'zh-CN' | 'en-US'): string => {
    let v: unknown = bundles[locale];
    for (const part of key.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
    if (typeof v !== 'string') throw new Error(`No text "${key}" in ${locale}`);
    return v.replace(/\{\{(\w+)\}\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
  };
  return { 'zh-CN': pick('zh-CN'), 'en-US': pick('en-US') };
}

/** The template texts {@link templateTexts} reads, under `template.<name>` (and `industry`). */
export const TEMPLATE_TEXT_KEYS = ['name', 'description', 'projectName', 'solutionName', 'datasetName', 'rewardName', 'rewardDescription'] as const;

/**
 * Every text of a template from a plugin's locale bundles laid out as the SDK's example does:
 * `industry` (the industry's name) and `template.name`, `template.description`,
 * `template.projectName`, `template.solutionName`, `template.datasetName`,
 * `template.rewardName`, `template.rewardDescription`.
 *
 * @example
 * ```ts
 * templates: [{ id: 'bakery', industry: 'retail', ...templateTexts({ 'zh-CN': zhCN, 'en-US': enUS }), colour: 'gold', data, graph, reward }]
 * ```
 * @throws Error when a key is missing or not a string in a language.
 */
export function templateTexts(
  bundles: Record<'zh-CN' | 'en-US', Record<string, unknown>>,
): Record<(typeof TEMPLATE_TEXT_KEYS)[number] | 'industryName', TemplateText> {
  const out = { industryName: templateText(bundles, 'industry') } as Record<(typeof TEMPLATE_TEXT_KEYS)[number] | 'industryName', TemplateText>;
  for (const key of TEMPLATE_TEXT_KEYS) out[key] = templateText(bundles, `template.${key}`);
  return out;
}
