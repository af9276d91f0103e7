/**
 * Issues found by graph validation: a stable code, the element at fault (so the editor shows
 * the issue in place), parameters, and a message in both interface languages.
 */
import type { Locale } from '../errors/messages';

/** Every graph issue code with its English and Chinese message. `{{x}}` are parameters. */
const CATALOGUE = {
  'graph.empty': ['The graph has no nodes', '决策图中没有节点'],
  'graph.nodeNameRequired': ['Node name is required', '节点名称不能为空'],
  'graph.nodeNameInvalid': [
    'Node name "{{name}}" may contain only letters, digits and underscores and must not start with a digit',
    '节点名称 "{{name}}" 只能包含字母、数字和下划线，且不能以数字开头',
  ],
  'graph.nodeNameDuplicate': ['Node name "{{name}}" is used more than once', '节点名称 "{{name}}" 重复'],
  'graph.nodeIdDuplicate': ['Node id "{{id}}" is used more than once', '节点 ID "{{id}}" 重复'],
  'graph.nodeNoFields': ['Select the fields of node "{{name}}" first', '请先为节点 "{{name}}" 选择字段'],
  'graph.fieldNameRequired': ['Field name is required (node "{{node}}")', '字段名称不能为空（节点 "{{node}}"）'],
  'graph.fieldNameDuplicate': [
    'Field "{{field}}" appears twice in node "{{node}}"',
    '字段 "{{field}}" 在节点 "{{node}}" 中重复',
  ],
  'graph.fieldMinNotNumber': ['Min of field "{{field}}" must be a number', '字段 "{{field}}" 的最小值必须是数字'],
  'graph.fieldMaxNotNumber': ['Max of field "{{field}}" must be a number', '字段 "{{field}}" 的最大值必须是数字'],
  'graph.fieldMinNotLessThanMax': [
    'Min of field "{{field}}" must be less than its max',
    '字段 "{{field}}" 的最小值必须小于最大值',
  ],
  'graph.fieldBoundsRequired': [
    'Field "{{field}}" is discrete: min and max are required',
    '字段 "{{field}}" 为离散有序类型，必须填写最小值和最大值',
  ],
  'graph.fieldCountInvalid': [
    'Discrete number of field "{{field}}" must be a positive integer',
    '字段 "{{field}}" 的离散数必须是正整数',
  ],
  'graph.fieldValuesRequired': [
    'Field "{{field}}" needs at least one discrete value',
    '字段 "{{field}}" 至少需要一个离散值',
  ],
  'graph.fieldValuesNotNumbers': [
    'Discrete values of field "{{field}}" must be numbers only',
    '字段 "{{field}}" 的离散值只能是数字',
  ],
  'graph.fieldValuesDuplicate': [
    'Discrete values of field "{{field}}" must be distinct',
    '字段 "{{field}}" 的离散值不能重复',
  ],
  'graph.edgeUnknownNode': ['The edge refers to a node that does not exist', '连线指向了不存在的节点'],
  'graph.edgeSelfLoop': ['Node "{{name}}" cannot be its own input', '节点 "{{name}}" 不能以自身为输入'],
  'graph.edgeDuplicate': ['The edge from "{{source}}" to "{{target}}" is drawn twice', '从 "{{source}}" 到 "{{target}}" 的连线重复'],
  'graph.edgeIntoInput': [
    'Node "{{name}}" is a {{role}} node read from data and cannot have inputs',
    '节点 "{{name}}" 是从数据读取的{{role}}节点，不能有输入',
  ],
  'graph.outputWithoutInputs': ['Node "{{name}}" has no inputs', '节点 "{{name}}" 没有输入'],
  'graph.nodeUnused': ['Node "{{name}}" is connected to nothing', '节点 "{{name}}" 未与任何节点相连'],
  'graph.agentReadsAgent': [
    'Agent "{{name}}" reads the decision of agent "{{source}}": if it is the environment\'s response to that decision (sales that follow a price, say), make it an environment node, or the policy will decide it too',
    '智能体 "{{name}}" 读取了智能体 "{{source}}" 的决策：如果它是环境对该决策的响应（例如随价格变化的销量），请将其设为环境节点，否则策略也会决定它',
  ],
  'graph.cycle': ['The graph has a cycle: {{cycle}}', '决策图存在环：{{cycle}}'],
  'graph.stateWithoutNext': [
    'State "{{name}}" has no final state "next_{{name}}"',
    '状态 "{{name}}" 缺少终止状态 "next_{{name}}"',
  ],
  'graph.nextWithoutState': [
    'Final state "{{name}}" has no initial state "{{state}}"',
    '终止状态 "{{name}}" 缺少初始状态 "{{state}}"',
  ],
  'graph.nextNotEnvironment': [
    'Final state "{{name}}" must be produced by the environment',
    '终止状态 "{{name}}" 必须由环境产生',
  ],
  'graph.stateNotConnected': [
    'Initial state "{{state}}" and final state "{{next}}" must be connected',
    '初始状态 "{{state}}" 与终止状态 "{{next}}" 必须连通',
  ],
  'graph.stateDimMismatch': [
    'State "{{state}}" has {{a}} fields but "{{next}}" has {{b}}',
    '状态 "{{state}}" 有 {{a}} 个字段，而 "{{next}}" 有 {{b}} 个',
  ],
  'graph.noAgent': ['The graph needs at least one agent', '决策图至少需要一个智能体'],
  'graph.noTunable': [
    'Parameter tuning needs at least one tunable parameter',
    '参数调优至少需要一个可调参数（外部因素）',
  ],
  'graph.noTrainableNode': [
    'At least one node must be kept without a function for training',
    '至少需要保留一个没有节点函数的节点用于训练',
  ],
  'graph.functionOnInput': [
    'Node "{{name}}" is read from data and cannot have a node function',
    '节点 "{{name}}" 从数据读取，不能设置节点函数',
  ],
  'graph.functionCodeRequired': [
    'Node "{{name}}": the code of its function is required before saving',
    '节点 "{{name}}"：保存前必须填写节点函数代码',
  ],
  'graph.functionFileMissing': [
    'Node "{{name}}": upload the Python file "{{file}}" (same file name)',
    '节点 "{{name}}"：请上传同名的 Python 文件 "{{file}}"',
  ],
  'graph.functionNameInvalid': [
    'Node "{{name}}": "{{function}}" is not a valid Python function name',
    '节点 "{{name}}"："{{function}}" 不是合法的 Python 函数名',
  ],
  'graph.historyUnknownNode': [
    'History node "{{name}}" refers to unknown node "{{of}}"',
    '历史节点 "{{name}}" 引用了不存在的节点 "{{of}}"',
  ],
  'graph.tunableRole': [
    'Node "{{name}}" is tunable but its role is {{role}}',
    '节点 "{{name}}" 标记为可调，但其角色为 {{role}}',
  ],
  'graph.metricNodeUnknown': ['Metric node "{{name}}" is not an output node', '评估节点 "{{name}}" 不是输出节点'],
} as const;

/** A graph issue code. */
export type GraphIssueCode = keyof typeof CATALOGUE;

/** All graph issue codes. */
export const GRAPH_ISSUE_CODES = Object.keys(CATALOGUE) as GraphIssueCode[];

/** What a graph issue points at. Field indexes count within the node's `fields`. */
export type GraphIssueTarget =
  | { kind: 'graph' }
  | { kind: 'node'; nodeId: string }
  | { kind: 'edge'; edgeId: string }
  | { kind: 'field'; nodeId: string; fieldIndex: number; property?: 'name' | 'min' | 'max' | 'count' | 'values' };

/** One validation issue. `error` blocks saving or training; `warning` does not. */
export interface GraphIssue {
  code: GraphIssueCode;
  severity: 'error' | 'warning';
  target: GraphIssueTarget;
  params: Record<string, string | number>;
}

/** The message of an issue in a locale, parameters filled in. */
export function graphIssueMessage(issue: Pick<GraphIssue, 'code' | 'params'>, locale: Locale): string {
  const entry = CATALOGUE[issue.code];
  const text = locale === 'en-US' ? entry[0] : entry[1];
  return text.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(issue.params[p] ?? ''));
}

/** Both messages of every code (for translation bundles and tests). */
export const GRAPH_ISSUE_MESSAGES: Record<Locale, Record<GraphIssueCode, string>> = {
  'en-US': Object.fromEntries(GRAPH_ISSUE_CODES.map((c) => [c, CATALOGUE[c][0]])) as Record<GraphIssueCode, string>,
  'zh-CN': Object.fromEntries(GRAPH_ISSUE_CODES.map((c) => [c, CATALOGUE[c][1]])) as Record<GraphIssueCode, string>,
};
