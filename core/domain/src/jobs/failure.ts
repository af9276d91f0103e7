import { ErrorCode, type ErrorCodeName } from '../errors/codes';
import { messageOf, type Locale } from '../errors/messages';
import { validationMessage } from '../errors/validation';

/**
 * The reason a job failed, in the caller's language. Jobs record their failure as English text
 * (a worker writes it, whatever language its caller speaks). The contract translates what it
 * knows: the catalogue's messages (a handler that threw an `AppError`), the queue's own reasons
 * (a lost worker or thread, a restart) and the engine's usual ones; the variable parts (a file
 * name, a column, a count) are kept. Anything else is passed as written, which for engine
 * details (a Python traceback, a column list) is what a person needs anyway.
 */

type Rule = { re: RegExp; zh: (m: RegExpMatchArray) => string };

/** The rest of a lost job's reason: "; gave up after N attempts". */
const GAVE_UP = /^(.*); gave up after (\S+) attempts$/s;

const RULES: Rule[] = [
  { re: /^The worker thread running the job crashed: (.*)$/s, zh: (m) => `运行该任务的工作线程崩溃：${m[1]}` },
  { re: /^The worker thread running the job exited with code (\S+)$/, zh: (m) => `运行该任务的工作线程已退出（代码 ${m[1]}）` },
  { re: /^The server restarted$/, zh: () => '服务器已重启' },
  { re: /^The server lost track of the job$/, zh: () => '服务器丢失了该任务的运行状态' },
  { re: /^Worker (\S+) stopped responding \(no heartbeat for (\d+) s\)$/, zh: (m) => `工作节点 ${m[1]} 无响应（${m[2]} 秒无心跳）` },
  { re: /^Worker (\S+) lost track of the job$/, zh: (m) => `工作节点 ${m[1]} 丢失了该任务的运行状态` },
  { re: /^Worker (\S+) shut down$/, zh: (m) => `工作节点 ${m[1]} 已关闭` },
  { re: /^Could not queue the job: (.*)$/s, zh: (m) => `任务无法排队：${m[1]}` },
  { re: /^Unknown job kind "(.*)"$/, zh: (m) => `未知的任务类型 "${m[1]}"` },
  { re: /^The (scheme|environment|policy|reward|deduction|parameter search|training) was deleted$/, zh: (m) => `${WHAT_ZH[m[1]!] ?? m[1]}已被删除` },
  { re: /^The scheme has no processed data$/, zh: () => '方案没有已处理的数据' },
  { re: /^The environment has not finished training$/, zh: () => '环境尚未训练完成' },
  { re: /^The policy has not finished training$/, zh: () => '策略尚未训练完成' },
  { re: /^The solution has no decision graph or table correlation$/, zh: () => '解决方案没有决策流图或表关联' },
  { re: /^The decision graph has no tunable parameter to search$/, zh: () => '决策流图没有可搜索的可调参数' },
  { re: /^Insufficient computing power or resources: (.*)$/s, zh: () => '算力或资源不足：数据约需其大小 20 倍的内存' },
  { re: /^auto search: no trial finished \(see the log\)$/, zh: () => '超参数自动搜索：没有一次试验完成（见日志）' },
  { re: /^The initial dataset does not fit the environment's data: missing (.*)$/s, zh: (m) => `初始数据集与环境数据不符：缺少 ${m[1]}` },
  { re: /^The new data does not fit the scheme's data: (.*)$/s, zh: (m) => `新数据与方案数据不符：${m[1]}` },
  { re: /^the scheme keeps no rows \((.*)\)$/s, zh: (m) => `方案筛选后没有数据行（${m[1]}）` },
  { re: /^git: (.*)$/s, zh: (m) => `git：${m[1]}` },
];

const WHAT_ZH: Record<string, string> = {
  scheme: '方案',
  environment: '环境',
  policy: '策略',
  reward: '奖励',
  deduction: '推演',
  'parameter search': '参数调优',
  training: '训练',
};

let byEnglish: Map<string, ErrorCodeName> | null = null;

/** The catalogue code whose English message is `text`, if any. */
function catalogueCodeOf(text: string): ErrorCodeName | null {
  if (!byEnglish) {
    byEnglish = new Map();
    for (const name of Object.keys(ErrorCode) as ErrorCodeName[]) byEnglish.set(messageOf(name, 'en-US'), name);
  }
  return byEnglish.get(text) ?? null;
}

/**
 * `"<catalogue message>: <detail>"` (how a job records an `AppError` with a detail) in
 * `locale`: the message translated, a `validation.*` detail too, any other detail as written.
 */
function withDetail(text: string, locale: Locale): string | null {
  const at = text.indexOf(': ');
  if (at < 0) return null;
  const code = catalogueCodeOf(text.slice(0, at));
  if (!code) return null;
  const detail = text.slice(at + 2);
  const shown = /^validation\.\w+$/.test(detail) ? validationMessage(detail, locale) : detail;
  return `${messageOf(code, locale)}${locale === 'zh-CN' ? '：' : ': '}${shown}`;
}

function zhOf(text: string): string | null {
  const code = catalogueCodeOf(text);
  if (code) return messageOf(code, 'zh-CN');
  for (const r of RULES) {
    const m = text.match(r.re);
    if (m) return r.zh(m);
  }
  return null;
}

/**
 * `error` (a job's recorded failure text) in `locale`; null stays null. English text is the
 * recorded form, so `en-US` gets it as written.
 */
export function jobFailureText(error: string | null | undefined, locale: Locale): string | null {
  if (error === null || error === undefined || error === '') return null;
  // A catalogue code name (what model services record): its message.
  if (Object.hasOwn(ErrorCode, error)) return messageOf(error as ErrorCodeName, locale);
  const detailed = withDetail(error, locale);
  if (detailed) return detailed;
  if (locale === 'en-US') return error;
  const gaveUp = error.match(GAVE_UP);
  if (gaveUp) return `${zhOf(gaveUp[1]!) ?? gaveUp[1]}；尝试 ${gaveUp[2]} 次后放弃`;
  return zhOf(error) ?? error;
}
