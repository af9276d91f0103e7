/**
 * Typed errors of the learning engine. Each has a stable string code, parameters, and a
 * message in both interface languages; the server maps them onto its envelope, the workbench
 * shows `message(locale)`.
 */
import type { Locale } from '@decisio/domain';

const CATALOGUE = {
  // YAML import
  'yaml.parse': ['The YAML file cannot be read: {{detail}}', '无法解析 YAML 文件：{{detail}}'],
  'yaml.noMetadata': ['The YAML file has no "metadata" section', 'YAML 文件缺少 "metadata" 部分'],
  'yaml.noGraph': ['The YAML file has no "metadata.graph" section', 'YAML 文件缺少 "metadata.graph" 部分'],
  'yaml.noColumns': ['The YAML file has no "metadata.columns" section', 'YAML 文件缺少 "metadata.columns" 部分'],
  'yaml.badColumn': ['Column entry {{index}} is malformed: {{detail}}', '第 {{index}} 个列描述格式错误：{{detail}}'],
  'yaml.badType': ['Column "{{column}}" has unknown type "{{type}}"', '列 "{{column}}" 的类型 "{{type}}" 无法识别'],
  'yaml.badGraph': ['metadata.graph entry "{{node}}" must list its inputs', 'metadata.graph 中 "{{node}}" 必须列出其输入'],
  'yaml.badFunction': ['Expert function of "{{node}}" is malformed: {{detail}}', '节点 "{{node}}" 的专家函数格式错误：{{detail}}'],
  'yaml.nodeNoColumns': ['Node "{{node}}" has no columns in metadata.columns', '节点 "{{node}}" 在 metadata.columns 中没有列'],

  'revive.unsupported': [
    'The REVIVE feature "{{feature}}" is not supported here; remove it from the YAML to train (other unsupported features: {{more}})',
    '此处不支持 REVIVE 功能 "{{feature}}"，请从 YAML 中删除后再训练（其他不支持的功能：{{more}}）',
  ],
  'revive.matcherReward': ['A matcher reward file (--matcher-reward) needs the revive-p venv algorithm, not {{algo}}', '匹配器奖励文件（--matcher-reward）需要 revive-p 虚拟环境算法，而不是 {{algo}}'],

  // data files
  'data.npyFormat': ['"{{name}}" is not a valid .npy array: {{detail}}', '"{{name}}" 不是有效的 .npy 数组：{{detail}}'],
  'data.npyDtype': ['"{{name}}" has unsupported dtype {{dtype}}', '"{{name}}" 的数据类型 {{dtype}} 不受支持'],
  'data.zipFormat': ['The .npz file cannot be unzipped: {{detail}}', '无法解压 .npz 文件：{{detail}}'],
  'data.h5Format': ['The .h5 file cannot be read: {{detail}}', '无法读取 .h5 文件：{{detail}}'],
  'data.csvFormat': ['The csv file is malformed at line {{line}}: {{detail}}', 'csv 文件第 {{line}} 行格式错误：{{detail}}'],
  'data.empty': ['The data set is empty', '数据集为空'],
  'data.missingNode': ['The data has no array for node "{{node}}"', '数据中缺少节点 "{{node}}" 的数组'],
  'data.missingColumn': ['The table has no column "{{column}}" (node "{{node}}")', '数据表缺少列 "{{column}}"（节点 "{{node}}"）'],
  'data.wrongDims': ['Node "{{node}}" has {{got}} columns in the data but {{expected}} in the graph', '节点 "{{node}}" 在数据中有 {{got}} 列，而决策图中有 {{expected}} 列'],
  'data.notMatrix': ['Array "{{node}}" must have shape [N, dim], got [{{shape}}]', '数组 "{{node}}" 的形状必须为 [N, dim]，实际为 [{{shape}}]'],
  'data.rowMismatch': ['Array "{{node}}" has {{got}} rows but the index ends at {{expected}}', '数组 "{{node}}" 有 {{got}} 行，而 index 的结尾为 {{expected}}'],
  'data.indexNotMonotonic': ['The "index" array must increase strictly (position {{position}})', '"index" 数组必须严格递增（位置 {{position}}）'],
  'data.indexInvalid': ['The "index" array is invalid: {{detail}}', '"index" 数组无效：{{detail}}'],
  'data.nanOnly': ['Column "{{column}}" of node "{{node}}" has no values (all NaN)', '节点 "{{node}}" 的列 "{{column}}" 全部为空值（NaN）'],
  'data.notNumeric': ['Column "{{column}}" holds a non-numeric value "{{value}}" (row {{row}})', '列 "{{column}}" 含有非数值 "{{value}}"（第 {{row}} 行）'],
  'data.categoryValue': ['Column "{{column}}" holds {{value}}, which is not one of its discrete values', '列 "{{column}}" 的值 {{value}} 不在其离散值中'],
  'data.trajectoryTooShort': ['Every trajectory needs at least 2 steps to build "{{node}}"', '构造 "{{node}}" 需要每条轨迹至少 2 步'],
  'data.fieldRequired': ['The {{field}} field is required', '必须指定{{field}}字段'],
  'data.noRowsLeft': ['No rows are left after removing missing values', '去除缺失值后没有剩余数据'],
  'data.splitTooSmall': ['Too little data to split into training and validation', '数据太少，无法划分训练集和验证集'],
  'data.functionNodeMissing': ['Node "{{node}}" is computed by a function and is missing from the data', '节点 "{{node}}" 由函数计算，数据中缺失'],

  // python sandbox
  'sandbox.start': ['The Python sandbox could not start: {{detail}}', 'Python 沙箱无法启动：{{detail}}'],
  'sandbox.syntax': ['Syntax error in {{file}} line {{line}}: {{detail}}', '{{file}} 第 {{line}} 行语法错误：{{detail}}'],
  'sandbox.import': ['{{file}} could not be loaded (line {{line}}): {{detail}}', '{{file}} 加载失败（第 {{line}} 行）：{{detail}}'],
  'sandbox.missingFunction': ['{{file}} has no function "{{function}}"', '{{file}} 中没有函数 "{{function}}"'],
  'sandbox.exception': ['{{type}} in {{file}} line {{line}}: {{detail}}', '{{file}} 第 {{line}} 行出现 {{type}}：{{detail}}'],
  'sandbox.shape': ['"{{function}}" returned shape [{{got}}], expected [{{expected}}]', '"{{function}}" 返回的形状为 [{{got}}]，期望 [{{expected}}]'],
  'sandbox.nan': ['"{{function}}" returned NaN or infinite values', '"{{function}}" 返回了 NaN 或无穷值'],
  'reward.nonFinite': [
    '"{{function}}" returned a non-finite reward ({{results}}) on {{count}} of {{total}} rows (rows {{rows}}). The values it was given: {{values}}',
    '"{{function}}" 在 {{total}} 行中的 {{count}} 行返回了非有限的奖励（{{results}}），出错的行：{{rows}}。它收到的值：{{values}}',
  ],
  'sandbox.output': ['"{{function}}" must return an array: {{detail}}', '"{{function}}" 必须返回数组：{{detail}}'],
  'sandbox.timeout': ['"{{function}}" took longer than {{ms}} ms', '"{{function}}" 运行超过 {{ms}} 毫秒'],
  'sandbox.crashed': ['The Python process stopped: {{detail}}', 'Python 进程已退出：{{detail}}'],
  'sandbox.closed': ['The Python sandbox is closed', 'Python 沙箱已关闭'],
  'sandbox.unavailable': [
    'User code cannot run: the bubblewrap sandbox is not available on this machine ({{detail}}). Install the bubblewrap package (apt-get install bubblewrap) on the server and on every worker.',
    '无法运行用户代码：本机的 bubblewrap 沙箱不可用（{{detail}}）。请在服务器和每个工作节点上安装 bubblewrap 软件包（apt-get install bubblewrap）。',
  ],
  'sandbox.processLimit': [
    '{{file}} line {{line}} started too many processes or threads: the sandbox allows {{limit}}',
    '{{file}} 第 {{line}} 行启动了过多的进程或线程：沙箱最多允许 {{limit}} 个',
  ],

  // training
  'trainer.noStopCondition': ['Choose at least one stop condition', '请至少选择一个停止条件'],
  'trainer.durationInvalid': ['Duration must be a whole number, at most 7 days', '时长必须为整数，且不超过 7 天'],
  'trainer.expectedValueRange': ['The expected value must be greater than 0 and at most 99', '期望值必须大于 0 且不超过 99'],
  'trainer.searchRange': ['Search count and step must be greater than 0 and less than 10000', '搜索次数和步长必须大于 0 且小于 10000'],
  'trainer.failed': ['Training failed: {{detail}}', '训练失败：{{detail}}'],
} as const;

/** Code of a learning error. */
export type LearningErrorCode = keyof typeof CATALOGUE;

/** All learning error codes. */
export const LEARNING_ERROR_CODES = Object.keys(CATALOGUE) as LearningErrorCode[];

/** Message of a code in a locale with its parameters filled in. */
export function learningMessage(code: LearningErrorCode, params: Record<string, string | number>, locale: Locale): string {
  const entry = CATALOGUE[code];
  const text = locale === 'zh-CN' ? entry[1] : entry[0];
  return text.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params[p] ?? ''));
}

/** Both messages of every code. */
export const LEARNING_MESSAGES: Record<Locale, Record<LearningErrorCode, string>> = {
  'en-US': Object.fromEntries(LEARNING_ERROR_CODES.map((c) => [c, CATALOGUE[c][0]])) as Record<LearningErrorCode, string>,
  'zh-CN': Object.fromEntries(LEARNING_ERROR_CODES.map((c) => [c, CATALOGUE[c][1]])) as Record<LearningErrorCode, string>,
};

/**
 * An error of the learning engine. `message` is the English text; `localized(locale)` gives
 * either language. `details` carries extra structured data (e.g. a Python traceback).
 */
export class LearningError extends Error {
  override readonly name = 'LearningError';
  constructor(
    readonly code: LearningErrorCode,
    readonly params: Record<string, string | number> = {},
    readonly details?: Record<string, unknown>,
  ) {
    super(learningMessage(code, params, 'en-US'));
  }

  /** The message in a locale. */
  localized(locale: Locale): string {
    return learningMessage(this.code, this.params, locale);
  }
}

/** Whether a value is a {@link LearningError}, optionally of a given code. */
export function isLearningError(e: unknown, code?: LearningErrorCode): e is LearningError {
  return e instanceof LearningError && (code === undefined || e.code === code);
}
