import { z } from 'zod';
import type { Locale } from '../errors/messages';
import { algorithmHyperparameterIssues, HYPERPARAMETER_SCHEMAS, SEARCHABLE_HYPERPARAMETERS, TRAINING_ALGORITHMS, type TrainingAlgorithmKind } from './training';

/**
 * Hyperparameter sets (spec workflow §3 "Hyperparameter set", §5): what an algorithm takes, read
 * from its strict schema in `training.ts` (`HYPERPARAMETER_SCHEMAS`), and the one check of a
 * set's `params` used by the generated form, the raw JSON editor and `hyperparameter/create|edit`
 * on the server. A set's defaults must pass the training schema (they become a training's
 * `hyperparameters` through `hyperparameter/createTrainParams`); each search value must be a
 * value the hyperparameter takes.
 */

/** How the form asks for a hyperparameter's value. */
export type HyperparameterInput = 'int' | 'float' | 'bool' | 'choice' | 'intList';

/** One hyperparameter an algorithm takes, described from its schema. */
export interface HyperparameterSpec {
  name: string;
  input: HyperparameterInput;
  /** Bounds of the number (of each list item for `intList`); `exclusiveMin`: strictly above `min`. */
  min?: number;
  max?: number;
  exclusiveMin?: boolean;
  /** `choice`: the values it takes. */
  options?: string[];
  /** `intList`: how many items. */
  minItems?: number;
  maxItems?: number;
  /** Whether an auto-search may vary it (`SEARCHABLE_HYPERPARAMETERS`). */
  searchable: boolean;
}

/** Search modes of a set's hyperparameter (how an auto-search varies it). */
export const HYPERPARAMETER_SEARCH_MODES = ['fixed', 'grid', 'choice', 'continuous'] as const;
export type HyperparameterSearchMode = (typeof HYPERPARAMETER_SEARCH_MODES)[number];

/** Hyperparameters only some algorithms of a kind read (the others ignore them). */
const ONLY_FOR: Record<string, readonly string[]> = {
  ensemble: ['bc'],
  bcSteps: ['revive_p', 'revive_t'],
  generatorLr: ['revive_p', 'revive_t'],
  rollouts: ['revive_p', 'revive_t'],
  uncertaintyRelative: ['ppo'],
};

/** Largest safe integer bounds are no bound to show. */
const bound = (v: unknown): number | undefined => (typeof v === 'number' && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined);

function specOf(name: string, js: Record<string, unknown>, searchable: boolean): HyperparameterSpec {
  const items = (js.items ?? {}) as Record<string, unknown>;
  const s: HyperparameterSpec = { name, input: 'float', searchable };
  const src = js.type === 'array' ? items : js;
  if (js.type === 'array') {
    s.input = 'intList';
    if (typeof js.minItems === 'number') s.minItems = js.minItems;
    if (typeof js.maxItems === 'number') s.maxItems = js.maxItems;
  } else if (js.type === 'integer') s.input = 'int';
  else if (js.type === 'boolean') s.input = 'bool';
  else if (Array.isArray(js.enum)) {
    s.input = 'choice';
    s.options = js.enum.map(String);
  }
  const min = bound(src.minimum) ?? bound(src.exclusiveMinimum);
  if (min !== undefined) s.min = min;
  if (bound(src.exclusiveMinimum) !== undefined) s.exclusiveMin = true;
  const max = bound(src.maximum);
  if (max !== undefined) s.max = max;
  return s;
}

/**
 * The hyperparameters `algorithm` of `trainType` takes, in the schema's order (those only other
 * algorithms of the kind read are left out). Empty for an algorithm the kind does not have.
 */
export function algorithmHyperparameters(trainType: TrainingAlgorithmKind, algorithm: string): HyperparameterSpec[] {
  if (!(TRAINING_ALGORITHMS[trainType] as readonly string[]).includes(algorithm)) return [];
  const js = z.toJSONSchema(HYPERPARAMETER_SCHEMAS[trainType], { io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
  const searchable: readonly string[] = trainType === 'parameter' ? [] : SEARCHABLE_HYPERPARAMETERS[trainType];
  return Object.entries(js.properties)
    .filter(([name]) => !ONLY_FOR[name] || ONLY_FOR[name]!.includes(algorithm))
    .map(([name, p]) => specOf(name, p, searchable.includes(name)));
}

/** One hyperparameter of a set, as stored (`hyperparameterParamSchema`). */
export interface HyperparameterSetParam {
  name: string;
  description?: string | undefined;
  type?: string | undefined;
  default?: unknown;
  searchMode?: string | undefined;
  searchValues?: unknown[] | undefined;
}

/** What is wrong with a set: `path` names the place (`algorithm`, `params.<i>.name|default|searchMode|searchValues`). */
export interface HyperparameterSetIssue {
  path: string;
  rule: 'algorithm' | 'unknown' | 'duplicate' | 'value' | 'notForAlgorithm' | 'notSearchable' | 'searchMode' | 'searchRange' | 'searchValues';
  /** The hyperparameter (where there is one) and what it takes. */
  name?: string;
  spec?: HyperparameterSpec;
}

/**
 * Checks a set's `params` against the schema of `algorithm` (see the module comment): the
 * algorithm is one of the kind's, names are hyperparameters it takes and appear once, defaults
 * pass the training schema together (and the algorithm's own rules), search modes are known,
 * only searchable hyperparameters are searched, `continuous` is `[min, max]` with min below max
 * and both values it takes, `grid`/`choice` values are values it takes. Empty: the set is valid.
 */
export function hyperparameterSetIssues(trainType: TrainingAlgorithmKind, algorithm: string, params: readonly HyperparameterSetParam[]): HyperparameterSetIssue[] {
  const issues: HyperparameterSetIssue[] = [];
  if (!(TRAINING_ALGORITHMS[trainType] as readonly string[]).includes(algorithm)) return [{ path: 'algorithm', rule: 'algorithm' }];
  const specs = new Map(algorithmHyperparameters(trainType, algorithm).map((s) => [s.name, s]));
  const shape = (HYPERPARAMETER_SCHEMAS[trainType] as unknown as { shape: Record<string, z.ZodType> }).shape;
  const seen = new Map<string, number>();
  const defaults: Record<string, unknown> = {};
  const at = new Map<string, number>();
  params.forEach((p, i) => {
    const spec = specs.get(p.name);
    if (!spec) {
      issues.push({ path: `params.${i}.name`, rule: p.name in shape ? 'notForAlgorithm' : 'unknown', name: p.name });
      return;
    }
    if (seen.has(p.name)) {
      issues.push({ path: `params.${i}.name`, rule: 'duplicate', name: p.name });
      return;
    }
    seen.set(p.name, i);
    const field = shape[p.name]!;
    if (p.default !== undefined) {
      if (!field.safeParse(p.default).success) issues.push({ path: `params.${i}.default`, rule: 'value', name: p.name, spec });
      else {
        defaults[p.name] = p.default;
        at.set(p.name, i);
      }
    }
    const mode = p.searchMode ?? 'fixed';
    if (!(HYPERPARAMETER_SEARCH_MODES as readonly string[]).includes(mode)) {
      issues.push({ path: `params.${i}.searchMode`, rule: 'searchMode', name: p.name });
      return;
    }
    const values = p.searchValues ?? [];
    if (mode === 'fixed') return;
    if (!spec.searchable) {
      issues.push({ path: `params.${i}.searchMode`, rule: 'notSearchable', name: p.name });
      return;
    }
    if (mode === 'continuous') {
      const ok = (spec.input === 'int' || spec.input === 'float') && values.length === 2 && values.every((v) => typeof v === 'number' && field.safeParse(v).success) && (values[0] as number) < (values[1] as number);
      if (!ok) issues.push({ path: `params.${i}.searchValues`, rule: 'searchRange', name: p.name, spec });
    } else if (values.length === 0 || !values.every((v) => field.safeParse(v).success)) issues.push({ path: `params.${i}.searchValues`, rule: 'searchValues', name: p.name, spec });
  });
  // The defaults together: the schema's cross rules and the algorithm's.
  const whole = HYPERPARAMETER_SCHEMAS[trainType].safeParse(defaults);
  const cross: string[] = whole.success ? [] : whole.error.issues.map((x) => String(x.path[0] ?? ''));
  for (const [name] of algorithmHyperparameterIssues(algorithm, defaults)) cross.push(name);
  for (const name of new Set(cross)) {
    const i = at.get(name);
    if (i !== undefined && !issues.some((x) => x.path === `params.${i}.default`)) issues.push({ path: `params.${i}.default`, rule: 'notForAlgorithm', name, spec: specs.get(name)! });
  }
  return issues;
}

const MESSAGES: Record<Locale, Record<HyperparameterSetIssue['rule'] | 'int' | 'float' | 'bool' | 'choice' | 'intList' | 'atLeast' | 'above' | 'atMost' | 'items', string>> = {
  'en-US': {
    algorithm: 'Choose an algorithm of this training type',
    unknown: '"{{name}}" is not a hyperparameter of this algorithm',
    duplicate: '"{{name}}" is listed twice',
    value: '{{name}}: {{takes}}',
    notForAlgorithm: '{{name}}: not with this algorithm or these settings',
    notSearchable: '{{name}}: an auto-search does not vary it; use fixed',
    searchMode: '{{name}}: the search mode is fixed, grid, choice or continuous',
    searchRange: '{{name}}: continuous search takes [min, max], min below max, each {{takes}}',
    searchValues: '{{name}}: search values, each {{takes}}',
    int: 'a whole number',
    float: 'a number',
    bool: 'true or false',
    choice: 'one of {{options}}',
    intList: 'a list of whole numbers',
    atLeast: 'at least {{v}}',
    above: 'above {{v}}',
    atMost: 'at most {{v}}',
    items: '{{min}} to {{max}} items',
  },
  'zh-CN': {
    algorithm: '请选择该训练类型的算法',
    unknown: '“{{name}}”不是该算法的超参数',
    duplicate: '“{{name}}”重复出现',
    value: '{{name}}：{{takes}}',
    notForAlgorithm: '{{name}}：不适用于该算法或当前设置',
    notSearchable: '{{name}}：自动搜索不会改变它，请选固定',
    searchMode: '{{name}}：搜索方式为固定、网格、枚举或连续',
    searchRange: '{{name}}：连续搜索填 [最小值, 最大值]，最小值小于最大值，每个值须为{{takes}}',
    searchValues: '{{name}}：搜索值每个须为{{takes}}',
    int: '整数',
    float: '数值',
    bool: 'true 或 false',
    choice: '{{options}} 之一',
    intList: '整数列表',
    atLeast: '不小于 {{v}}',
    above: '大于 {{v}}',
    atMost: '不大于 {{v}}',
    items: '{{min}} 到 {{max}} 项',
  },
};

const fill = (text: string, params: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params[p] ?? ''));

/** What a hyperparameter takes, in words (`a whole number, at least 1`). */
export function hyperparameterTakes(spec: HyperparameterSpec, locale: Locale): string {
  const m = MESSAGES[locale];
  const sep = locale === 'zh-CN' ? '，' : ', ';
  const parts: string[] = [fill(m[spec.input], { options: (spec.options ?? []).join(' / ') })];
  if (spec.min !== undefined) parts.push(fill(spec.exclusiveMin ? m.above : m.atLeast, { v: spec.min }));
  if (spec.max !== undefined) parts.push(fill(m.atMost, { v: spec.max }));
  if (spec.input === 'intList' && spec.minItems !== undefined && spec.maxItems !== undefined) parts.push(fill(m.items, { min: spec.minItems, max: spec.maxItems }));
  return parts.join(sep);
}

/** An issue as a message in `locale`. */
export function hyperparameterSetIssueMessage(issue: HyperparameterSetIssue, locale: Locale): string {
  return fill(MESSAGES[locale][issue.rule], { name: issue.name ?? '', takes: issue.spec ? hyperparameterTakes(issue.spec, locale) : '' });
}
