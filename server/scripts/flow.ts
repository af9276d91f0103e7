/**
 * `npm run flow -- --url http://127.0.0.1:8080`: the modelling workflow end to end through the
 * HTTP API of a running server, the way a person goes through it in the workbench:
 *
 *  1. signs in with `--username` / `--password` (an existing account: sign-up needs a code sent
 *     to an e-mail or a mobile, which a script cannot read);
 *  2. creates a project and a policy-search solution;
 *  3. uploads a generated CSV of a room heating task (state: room temperature, action: heater
 *     power, tunable: the thermostat's setpoint; several trajectories, one row an hour) in parts,
 *     and makes a dataset of it;
 *  4. sets the decision graph and the table correlation;
 *  5. creates a scheme (business range, type, filter, partial order) and runs its data processing;
 *  6. trains an environment with BC, writes a reward (`reward.py`), trains a PPO policy, runs a
 *     parameter tuning (zoopt), a simulation deduction and a decision deduction;
 *
 * and prints every score. Each job is waited for by polling its record until it reaches a final
 * state; any error (an API error, a failed job, a time-out) stops the run with the reason and the
 * job's last log lines, and the process exits with status 1.
 *
 * Options: `--url` (or `FLOW_URL`), `--username` and `--password` (required), `--epochs` (environment steps, default 20), `--policy-epochs` (default 10), `--spread`
 * (pin the trainings to the online workers in turn, to see them shared), `--timeout` (seconds a
 * job may take, default 900), `--quiet`.
 */
import { pathToFileURL } from 'node:url';
import { TAG_COLOURS, encryptAccountPassword, type PublicKeyResponse } from '@decisio/domain';
import { importReviveYaml } from '@decisio/learning';

/** Options of {@link runFlow}. */
export interface FlowOptions {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  /** Environment training steps (default 20). */
  epochs?: number;
  /** Policy training steps (default 10). */
  policyEpochs?: number;
  /** Pin each training to the next online worker in turn. */
  spread?: boolean;
  /** Milliseconds one job may take (default 15 minutes). */
  jobTimeoutMs?: number;
  log?: (line: string) => void;
}

/** One job the flow ran. */
export interface FlowJob {
  step: string;
  recordId: string;
  jobId: string;
  /** The worker that ran it (null for the scheme processing, whose record does not say). */
  workerId: string | null;
  /** The worker it was pinned to (`--spread`). */
  pinned: string | null;
  state: string;
  durationMs: number | null;
}

/** What the flow made and measured. */
export interface FlowResult {
  user: string;
  projectId: string;
  solutionId: string;
  datasetId: string;
  schemeId: string;
  schemeRows: number;
  jobs: FlowJob[];
  scores: {
    environment: number;
    policyReward: number;
    tuningReward: number;
    tuningBest: Record<string, number[]>;
    simulation: number;
    simulationMae: number;
    decision: number;
    decisionBehaviour: number;
  };
}

/** A failed call or job: the flow stops with it. */
export class FlowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlowError';
  }
}

const FINAL = ['successful', 'failure', 'successful by manual stop'];

/** The room heating task's decision graph (REVIVE YAML): temp -> power -> next temp; setpoint is tunable. */
export const THERMAL_YAML = `metadata:
  graph:
    action:
    - obs
    - setpoint
    next_obs:
    - obs
    - action
  tunable:
  - setpoint
  columns:
  - temp:
      dim: obs
      type: continuous
      min: 0
      max: 40
  - power:
      dim: action
      type: continuous
      min: 0
      max: 1
  - target:
      dim: setpoint
      type: continuous
      min: 16
      max: 26
`;

/** Reward: keep the room at 21 °C, with a small price for the heating power. */
export const THERMAL_REWARD = `import numpy as np

def get_reward(data):
    temp = np.asarray(data['next_obs'])[:, :1]
    power = np.asarray(data['action'])[:, :1]
    return -np.abs(temp - 21.0) - 0.5 * power
`;

/**
 * The room heating task's data: `trajectories` days of `steps` hourly rows. The room loses heat
 * to a 10 °C outside (15 % of the gap an hour) and a heater of power p in [0, 1] adds 4 p °C; the
 * logged controller heats towards its day's setpoint (16-26 °C) with some noise.
 */
export function thermalCsv(trajectories = 8, steps = 24, seed = 11): string {
  let s = seed;
  const rnd = () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
  const lines = ['episode,step,time,temp,power,target'];
  const t0 = Date.UTC(2026, 2, 1);
  for (let e = 0; e < trajectories; e++) {
    const target = 16 + 10 * rnd();
    let temp = 12 + 10 * rnd();
    for (let k = 0; k < steps; k++) {
      const power = Math.min(1, Math.max(0, 0.35 * (target - temp) + 0.375 + 0.1 * (rnd() - 0.5)));
      const time = new Date(t0 + (e * 24 + k) * 3_600_000).toISOString();
      lines.push(`${e},${k},${time},${temp.toFixed(3)},${power.toFixed(4)},${target.toFixed(2)}`);
      temp = temp + 0.15 * (10 - temp) + 4 * power + 0.2 * (rnd() - 0.5);
    }
  }
  return lines.join('\n') + '\n';
}

interface Envelope<T> {
  code: number;
  message?: string;
  data: T;
  errors?: Record<string, string>;
}

/** Runs the whole flow against `options.url`; throws {@link FlowError} on the first error. */
export async function runFlow(options: FlowOptions): Promise<FlowResult> {
  const base = options.url.replace(/\/+$/, '');
  const log = options.log ?? ((l: string) => console.log(l));
  const epochs = options.epochs ?? 20;
  const policyEpochs = options.policyEpochs ?? 10;
  const jobTimeoutMs = options.jobTimeoutMs ?? 15 * 60_000;
  let token: string | null = null;
  const tag = `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e4).toString(36)}`;

  async function call<T = any>(name: string, body: unknown = {}): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${base}/api/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en-US', ...(token ? { Authorization: token } : {}) }, body: JSON.stringify(body) });
    } catch (err) {
      throw new FlowError(`${name}: the server at ${base} does not answer (${(err as Error).message})`);
    }
    const text = await res.text();
    let env: Envelope<T>;
    try {
      env = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new FlowError(`${name}: HTTP ${res.status}, not a JSON envelope: ${text.slice(0, 200)}`);
    }
    if (!res.ok || env.code !== 0) throw new FlowError(`${name}: HTTP ${res.status}, code ${env.code} ${env.message ?? ''}${env.errors ? ` ${JSON.stringify(env.errors)}` : ''}`);
    return env.data;
  }

  const started = Date.now();
  const step = (text: string) => log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${text}`);

  // ---- account --------------------------------------------------------------------------
  // Every account password carries the one-time nonce of a fresh key answer.
  const sealed = async (plain: string) => encryptAccountPassword(await call<PublicKeyResponse>('index/getPublicKey'), plain);
  // Sign-up proves an e-mail or a mobile with a code sent to it (and a captcha): a script signs in
  // to an account made for it (the workbench's sign-up, or an administrator's users/addUser).
  const username = options.username;
  const password = options.password;
  if (!username || !password) throw new FlowError('--username and --password are required: sign-up needs a code sent to an e-mail or a mobile, so the flow signs in to an existing account');
  const session = await call<{ accessToken: string }>('index/signIn', { username, password: await sealed(password) });
  token = session.accessToken;
  step(`signed in as ${username}`);

  // ---- project, solution, data ----------------------------------------------------------
  const project = await call<{ projectId?: string; id?: string }>('project/createProject', { name: `flow ${tag}`.slice(0, 20), colour: TAG_COLOURS[0], industryTemplate: null, info: 'Scripted end-to-end run (npm run flow)' });
  const projectId = (project.projectId ?? project.id)!;
  const solution = await call<{ solutionId?: string; id?: string }>('solution/create', { projectId, name: 'room heating', dataType: 'data_driven', goalType: 'policy_search' });
  const solutionId = (solution.solutionId ?? solution.id)!;
  step(`project ${projectId}, solution ${solutionId}`);

  const csv = Buffer.from(thermalCsv(), 'utf8');
  const upload = await call<{ uploadId: string; partSize: number; partCount: number }>('file/uploadpartinit', { name: `thermal_${tag}.csv`, size: csv.byteLength, purpose: 'dataset' });
  for (let part = 1; part <= upload.partCount; part++) {
    const bytes = csv.subarray((part - 1) * upload.partSize, Math.min(part * upload.partSize, csv.byteLength));
    const res = await fetch(`${base}/api/file/uploadOneFile?uploadId=${upload.uploadId}&partNumber=${part}`, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream', Authorization: token }, body: bytes });
    const env = (await res.json()) as Envelope<unknown>;
    if (!res.ok || env.code !== 0) throw new FlowError(`file/uploadOneFile part ${part}: HTTP ${res.status}, code ${env.code} ${env.message ?? ''}`);
  }
  const file = await call<{ fileId: string }>('file/uploadPartComplete', { uploadId: upload.uploadId });
  const dataset = await call<{ tableId: string; rowCount?: number }>('table/create', { fileId: file.fileId, name: `thermal ${tag}`.slice(0, 30), type: 'business', projectId });
  const datasetId = dataset.tableId;
  step(`uploaded ${csv.byteLength} bytes of CSV in ${upload.partCount} part(s); dataset ${datasetId}`);

  await call('solution/setPattern', { solutionId, graph: importReviveYaml(THERMAL_YAML).graph });
  await call('solution/setTableCorrelation', { solutionId, correlation: { primaryTableId: datasetId, datasetId, trajectoryField: 'episode', sequenceField: 'step', datetimeField: 'time', relations: [] } });
  step('decision graph and table correlation set');

  // ---- jobs -----------------------------------------------------------------------------
  const jobs: FlowJob[] = [];
  const lastLogs = async (jobId: string) => {
    try {
      const page = await call<{ items: Array<{ level: string; message: string }> }>('train/getTrainLog', { jobId, limit: 1000 });
      return page.items
        .filter((l) => !l.message.startsWith('metrics '))
        .slice(-12)
        .map((l) => `    ${l.level}: ${l.message}`)
        .join('\n');
    } catch {
      return '    (no log)';
    }
  };
  /** Polls `<area>/get` until the record's job is in a final state; fails unless it succeeded. */
  const waitFor = async (label: string, area: string, id: string, pinned: string | null): Promise<any> => {
    const until = Date.now() + jobTimeoutMs;
    let seen = '';
    for (;;) {
      const r = await call<any>(`${area}/get`, { id });
      const state = String(r.state);
      const progress = typeof r.progress === 'number' ? ` ${Math.round(r.progress * 100)}%` : '';
      if (state !== seen) step(`${label}: ${state}${progress}${r.workerId ? ` on ${r.workerId}` : ''}`);
      seen = state;
      if (FINAL.includes(state)) {
        jobs.push({ step: label, recordId: id, jobId: r.jobId, workerId: r.workerId ?? null, pinned, state, durationMs: r.durationMs ?? null });
        if (state !== 'successful') throw new FlowError(`${label} ended "${state}": ${r.error ?? 'no error recorded'}\n${await lastLogs(r.jobId)}`);
        if (pinned && r.workerId !== pinned) throw new FlowError(`${label} was pinned to ${pinned} but ran on ${r.workerId}`);
        return r;
      }
      if (Date.now() > until) throw new FlowError(`${label} still "${state}"${progress} after ${jobTimeoutMs / 1000} s\n${await lastLogs(r.jobId)}`);
      await new Promise((res) => setTimeout(res, 400));
    }
  };
  let workers: string[] = [];
  if (options.spread) {
    const vms = await call<{ rows: Array<{ id: string; status: string }> }>('virtualMachine/getVirtualMachineList');
    workers = vms.rows.filter((w) => w.status === 'online').map((w) => w.id).sort();
    if (workers.length === 0) throw new FlowError('--spread: no online worker');
    step(`spreading the trainings over ${workers.length} worker(s): ${workers.join(', ')}`);
  }
  let turn = 0;
  const pin = (): { workerId?: string } => (workers.length ? { workerId: workers[turn++ % workers.length]! } : {});

  const scheme = await call<{ id: string }>('scheme/create', {
    solutionId,
    name: 'march hourly',
    description: 'Hourly room data of March',
    period: 'hour',
    startTime: '2026-03-01',
    endTime: '2026-03-31',
    data: {
      dimensions: { agent: ['power'], otherAgents: [], environment: ['temp'] },
      types: { power: 'continuous [0, 1]', temp: 'continuous [0, 40]' },
      aggregation: {},
      filter: 'temp > 0 and target >= 16',
      partialOrder: ['0 <= power <= 1'],
    },
  });
  const processing = await call<{ jobId: string }>('scheme/schemeDataProcess', { id: scheme.id });
  {
    const until = Date.now() + jobTimeoutMs;
    for (;;) {
      const s = await call<{ processState: string; rows: number | null }>('scheme/get', { id: scheme.id });
      if (s.processState === 'completed') {
        jobs.push({ step: 'scheme data processing', recordId: scheme.id, jobId: processing.jobId, workerId: null, pinned: null, state: 'successful', durationMs: null });
        step(`scheme data processing: completed, ${s.rows} rows`);
        break;
      }
      if (s.processState === 'failed') throw new FlowError(`scheme data processing failed\n${await lastLogs(processing.jobId)}`);
      if (Date.now() > until) throw new FlowError(`scheme data processing still "${s.processState}" after ${jobTimeoutMs / 1000} s`);
      await new Promise((res) => setTimeout(res, 300));
    }
  }
  const schemeRows = Number((await call<{ rows: number }>('scheme/get', { id: scheme.id })).rows);

  const envPin = pin();
  const env = await call<{ id: string }>('trainSimulator/create', {
    solutionId,
    schemeId: scheme.id,
    name: `env ${tag}`,
    algorithm: 'bc',
    stopConditions: { system: true },
    hyperparameters: { epochs, hidden: [32, 32], updatesPerStep: 10, batchSize: 64, evalEvery: Math.max(1, Math.floor(epochs / 4)) },
    mode: 'run',
    ...envPin,
  });
  const envDone = await waitFor('environment training (BC)', 'trainSimulator', env.id, envPin.workerId ?? null);
  step(`environment score ${Number(envDone.score).toFixed(2)}`);

  const objective = await call<{ id: string }>('objective/create', { solutionId, name: 'comfort', description: 'Stay at 21 °C, pay for power', files: { 'reward.py': THERMAL_REWARD } });

  const polPin = pin();
  const policy = await call<{ id: string }>('trainPolicy/create', {
    solutionId,
    simulatorId: env.id,
    objectiveId: objective.id,
    name: `policy ${tag}`,
    algorithm: 'ppo',
    stopConditions: { system: true },
    hyperparameters: { epochs: policyEpochs, horizon: 8, bcUpdates: 50, batchSize: 32, evalWindows: 32, hidden: [32, 32] },
    ...polPin,
  });
  const polDone = await waitFor('policy training (PPO)', 'trainPolicy', policy.id, polPin.workerId ?? null);
  step(`policy return ${Number(polDone.reward).toFixed(4)}`);

  const tunePin = pin();
  const tuning = await call<{ id: string }>('trainParameter/create', {
    solutionId,
    simulatorId: env.id,
    objectiveId: objective.id,
    name: `tuning ${tag}`,
    algorithm: 'zoopt',
    stopConditions: { searchCount: 6 },
    hyperparameters: { horizon: 8 },
    ...tunePin,
  });
  const tuneDone = await waitFor('parameter tuning (zoopt)', 'trainParameter', tuning.id, tunePin.workerId ?? null);
  step(`tuning best ${JSON.stringify(tuneDone.result?.best?.candidate)} reward ${Number(tuneDone.reward).toFixed(4)}`);

  const simPin = pin();
  const simulation = await call<{ id: string }>('simulation/create', { solutionId, simulatorId: env.id, name: `simulation ${tag}`, stepSize: 12, ...simPin });
  const simDone = await waitFor('simulation deduction', 'simulation', simulation.id, simPin.workerId ?? null);
  step(`simulation score ${Number(simDone.score).toFixed(2)} (MAE ${Number(simDone.result?.mae).toFixed(3)})`);

  const decPin = pin();
  const decision = await call<{ id: string }>('decision/create', { solutionId, simulatorId: env.id, policyId: policy.id, objectiveId: objective.id, name: `decision ${tag}`, stepSize: 12, ...decPin });
  const decDone = await waitFor('decision deduction', 'decision', decision.id, decPin.workerId ?? null);
  step(`decision reward ${Number(decDone.score).toFixed(4)} (the data's behaviour: ${Number(decDone.result?.behaviourReward).toFixed(4)})`);

  const scores = {
    environment: Number(envDone.score),
    policyReward: Number(polDone.reward),
    tuningReward: Number(tuneDone.reward),
    tuningBest: (tuneDone.result?.best?.candidate ?? {}) as Record<string, number[]>,
    simulation: Number(simDone.score),
    simulationMae: Number(simDone.result?.mae),
    decision: Number(decDone.score),
    decisionBehaviour: Number(decDone.result?.behaviourReward),
  };
  for (const [k, v] of Object.entries(scores)) if (typeof v === 'number' && !Number.isFinite(v)) throw new FlowError(`score ${k} is not a number (${v})`);
  return { user: username, projectId, solutionId, datasetId, schemeId: scheme.id, schemeRows, jobs, scores };
}

/** Prints the result as a short report. */
export function describeFlow(r: FlowResult): string {
  const s = r.scores;
  const rows = [
    ['environment score (BC)', s.environment.toFixed(2)],
    ['policy return (PPO)', s.policyReward.toFixed(4)],
    ['tuning reward (zoopt)', `${s.tuningReward.toFixed(4)} at ${JSON.stringify(s.tuningBest)}`],
    ['simulation score', `${s.simulation.toFixed(2)} (MAE ${s.simulationMae.toFixed(3)})`],
    ['decision reward', `${s.decision.toFixed(4)} (behaviour ${s.decisionBehaviour.toFixed(4)})`],
  ];
  const jobs = r.jobs.map((j) => `  ${j.step.padEnd(28)} ${j.state.padEnd(11)} ${j.workerId ?? '-'}${j.durationMs !== null ? ` ${(j.durationMs / 1000).toFixed(1)} s` : ''}`);
  return [`scores (user ${r.user}, solution ${r.solutionId}, ${r.schemeRows} processed rows):`, ...rows.map(([k, v]) => `  ${k!.padEnd(28)} ${v}`), 'jobs:', ...jobs].join('\n');
}

function parseArgs(argv: string[]): FlowOptions & { quiet: boolean } {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    if (i >= 0) return argv[i + 1];
    const eq = argv.find((a) => a.startsWith(`--${name}=`));
    return eq?.slice(name.length + 3);
  };
  const int = (name: string) => {
    const v = get(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new FlowError(`--${name} must be a positive integer, got "${v}"`);
    return n;
  };
  const url = get('url') ?? process.env.FLOW_URL;
  if (!url) throw new FlowError('usage: npm run flow -- --url http://127.0.0.1:8080 --username u --password p [--epochs 20] [--policy-epochs 10] [--spread] [--timeout 900]');
  const timeout = int('timeout');
  const epochs = int('epochs');
  const policyEpochs = int('policy-epochs');
  return {
    url,
    username: get('username'),
    password: get('password'),
    ...(epochs ? { epochs } : {}),
    ...(policyEpochs ? { policyEpochs } : {}),
    spread: argv.includes('--spread'),
    ...(timeout ? { jobTimeoutMs: timeout * 1000 } : {}),
    quiet: argv.includes('--quiet'),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { quiet, ...options } = parseArgs(process.argv.slice(2));
    const result = await runFlow({ ...options, log: quiet ? () => undefined : (l) => console.log(l) });
    console.log(describeFlow(result));
  } catch (err) {
    console.error(`flow failed: ${err instanceof FlowError ? err.message : ((err as Error).stack ?? String(err))}`);
    process.exit(1);
  }
}
