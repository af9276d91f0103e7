#!/usr/bin/env node
/**
 * A small scripted client of the Decisio API, from data to decisions, with nothing but Node
 * (18+: fetch, WebCrypto). It is the worked example of docs/api.md and runs in CI against the
 * embedded server (server/test/example-client.test.ts).
 *
 *   DECISIO_URL=http://127.0.0.1:3000 DECISIO_USERNAME=me DECISIO_PASSWORD=... node docs/examples/client.mjs
 *
 * Steps: sign in (an account made once in the workbench: sign-up verifies an e-mail with a
 * code and a captcha, for people) → upload a CSV (a table without a time column) → dataset →
 * project and solution → decision graph and table correlation → scheme (no period or range) and
 * its processing → reward → environment training (followed live on `job/events`) → policy
 * training (followed with `job/wait`) → deploy and start in one call → decisions at the
 * service's access address. Every wait uses the one job contract. The last line printed is a
 * JSON summary.
 *
 * Options (environment): DECISIO_DECISIONS (rows decided, default 2000), DECISIO_EPOCHS
 * (training steps of each training, default 2: a smoke run; raise it for a real policy).
 */

const base = (process.env.DECISIO_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const username = process.env.DECISIO_USERNAME;
const password = process.env.DECISIO_PASSWORD;
const decisionsWanted = Number(process.env.DECISIO_DECISIONS ?? 2000);
const epochs = Number(process.env.DECISIO_EPOCHS ?? 2);
if (!username || !password) {
  console.error('Set DECISIO_USERNAME and DECISIO_PASSWORD (an account of the server at DECISIO_URL).');
  process.exit(2);
}

const started = Date.now();
const say = (text) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${text}`);
let token = null;

/** One call: POST JSON, answer the envelope's `data`; a non-zero code throws with the server's message. */
async function call(name, body = {}) {
  const res = await fetch(`${base}/api/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en-US', ...(token ? { Authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  const env = await res.json();
  if (env.code !== 0) throw new Error(`${name}: ${env.code} ${env.message}${env.errors ? ` ${JSON.stringify(env.errors)}` : ''}`);
  return env.data;
}

/** An account password, encrypted with the key and one-time nonce of a fresh `index/getPublicKey` answer. */
async function sealed(plain) {
  const { spki, nonce } = await call('index/getPublicKey');
  const key = await crypto.subtle.importKey('spki', Buffer.from(spki, 'base64'), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const cipher = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(`\0${nonce}\0${plain}`));
  return Buffer.from(cipher).toString('base64');
}

/** Waits for a job (or a model service) with `job/wait` until its state is final; throws on failure with its reason. */
async function waitFor(jobId, label) {
  let state;
  for (;;) {
    const job = await call('job/wait', { jobId, ...(state ? { state } : {}), timeoutSeconds: 30 });
    if (job.state !== state) say(`${label}: ${job.state}${job.progress ? ` ${(job.progress * 100).toFixed(0)}%` : ''}`);
    state = job.state;
    if (job.final) {
      if (job.state === 'failure') throw new Error(`${label} failed: ${job.error}`);
      return job;
    }
  }
}

/** Follows a job on its event stream (`GET job/events`): metrics points as they come, until the final state. */
async function follow(jobId, label) {
  const res = await fetch(`${base}/api/job/events?jobId=${jobId}`, { headers: { Authorization: token, 'Accept-Language': 'en-US' } });
  if (!res.ok) throw new Error(`job/events: HTTP ${res.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  let points = 0;
  let last = null;
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!event || data === undefined) continue;
      const value = JSON.parse(data);
      if (event === 'metrics') points++;
      if (event === 'state') {
        if (value.state !== last?.state) say(`${label}: ${value.state}`);
        last = value;
      }
    }
  }
  if (!last?.final) throw new Error(`${label}: the stream ended before a final state`);
  if (last.state === 'failure') throw new Error(`${label} failed: ${last.error}`);
  say(`${label}: ${points} metrics points streamed`);
  return { ...last, points };
}

// ---- the data: a small linear system x' = 0.9 x + 0.5 a, steered towards 0 -------------------
function dataCsv(trajectories = 20, steps = 20) {
  const lines = ['traj,step,x,a'];
  let seed = 11;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let t = 0; t < trajectories; t++) {
    let x = rnd() * 3 - 1.5;
    const gain = 0.3 + 0.6 * rnd();
    for (let k = 0; k < steps; k++) {
      const a = Math.max(-1, Math.min(1, -gain * x + 0.1 * (rnd() - 0.5)));
      lines.push(`${t},${k},${x.toFixed(5)},${a.toFixed(5)}`);
      x = 0.9 * x + 0.5 * a;
    }
  }
  return lines.join('\n') + '\n';
}

/** The decision graph: the state `obs` (x) feeds the agent `action` (a); both feed the environment `next_obs`. */
const GRAPH = {
  schemaVersion: 1,
  nodes: [
    { id: 'obs', name: 'obs', role: 'state', fields: [{ name: 'x', dataType: 'continuous', kind: 'float', visibility: 'normal', min: -2, max: 2 }], tunable: false },
    { id: 'action', name: 'action', role: 'agent', fields: [{ name: 'a', dataType: 'continuous', kind: 'float', visibility: 'normal', min: -1, max: 1 }], tunable: false },
    { id: 'next_obs', name: 'next_obs', role: 'environment', fields: [], tunable: false },
  ],
  edges: [
    { id: 'obs->action', source: 'obs', target: 'action' },
    { id: 'obs->next_obs', source: 'obs', target: 'next_obs' },
    { id: 'action->next_obs', source: 'action', target: 'next_obs' },
  ],
};

/** The reward: stay close to zero. */
const REWARD_PY = `import numpy as np

def get_reward(data):
    return -np.abs(np.asarray(data['next_obs'])[:, :1])
`;

// ---- the flow -----------------------------------------------------------------------------
token = (await call('index/signIn', { username, password: await sealed(password) })).accessToken;
say(`signed in as ${username}`);

const tag = Date.now().toString(36).slice(-5);
const csv = Buffer.from(dataCsv(), 'utf8');
const upload = await call('file/uploadpartinit', { name: `example_${tag}.csv`, size: csv.byteLength, purpose: 'dataset' });
for (let part = 1; part <= upload.partCount; part++) {
  const bytes = csv.subarray((part - 1) * upload.partSize, part * upload.partSize);
  const res = await fetch(`${base}/api/file/uploadOneFile?uploadId=${upload.uploadId}&partNumber=${part}`, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream', Authorization: token }, body: bytes });
  const env = await res.json();
  if (env.code !== 0) throw new Error(`file/uploadOneFile: ${env.code} ${env.message}`);
}
const { fileId } = await call('file/uploadPartComplete', { uploadId: upload.uploadId });
const project = await call('project/createProject', { name: `example ${tag}`, colour: 'ocean', industryTemplate: null, info: 'docs/examples/client.mjs' });
const dataset = await call('table/create', { fileId, name: `example ${tag}`, type: 'business', projectId: project.id });
say(`uploaded ${csv.byteLength} bytes; dataset ${dataset.id} (${dataset.amount} rows)`);
const solution = await call('solution/create', { projectId: project.id, name: 'steer to zero', dataType: 'data_driven', goalType: 'policy_search' });

await call('solution/setPattern', { solutionId: solution.id, graph: GRAPH });
// No time column: no datetime field, and the scheme below names no period or range.
await call('solution/setTableCorrelation', { solutionId: solution.id, correlation: { primaryTableId: dataset.id, datasetId: dataset.id, trajectoryField: 'traj', sequenceField: 'step' } });
const scheme = await call('scheme/create', { solutionId: solution.id, name: 'all rows' });
const processing = await call('scheme/schemeDataProcess', { id: scheme.schemeId });
await waitFor(processing.jobId, 'scheme processing');

const reward = await call('objective/create', { solutionId: solution.id, name: 'near zero', files: { 'reward.py': REWARD_PY } });
// Stop conditions left out: the system decides (within `epochs` steps).
const env = await call('trainSimulator/create', { solutionId: solution.id, schemeId: scheme.schemeId, name: `env ${tag}`, hyperparameters: { epochs, hidden: [16], updatesPerStep: 4, batchSize: 32, ensemble: 1 } });
const envDone = await follow(env.jobId, 'environment training');
const policy = await call('trainPolicy/create', {
  solutionId: solution.id,
  simulatorId: env.simulatorId,
  objectiveId: reward.objectiveId,
  name: `policy ${tag}`,
  hyperparameters: { epochs, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [8] },
});
await waitFor(policy.jobId, 'policy training');

// Deploy and start in one call; the reply comes once the service runs (or failed).
const service = await call('modeldeploy/create', { serviceName: `example ${tag}`, policyId: policy.policyId, start: true, waitSeconds: 30 });
if (service.status !== 'running') await waitFor(service.serviceId, 'model service');
const detail = await call('modeldeploy/queryDetail', { id: service.serviceId });
say(`service running at ${detail.accessAddress}; inputs ${detail.inputs.map((f) => f.name).join(', ')}`);

let decided = 0;
let sum = 0;
while (decided < decisionsWanted) {
  const rows = Array.from({ length: Math.min(1000, decisionsWanted - decided) }, (_, i) => Object.fromEntries(detail.inputs.map((f) => [f.name, f.min + ((i * 0.618) % 1) * (f.max - f.min)])));
  const res = await fetch(detail.accessAddress, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${service.accessToken}` }, body: JSON.stringify(rows) });
  const answer = await res.json();
  if (answer.code !== 0) throw new Error(`decide: ${answer.code} ${answer.message}`);
  for (const d of answer.data.decisions) sum += Number(Object.values(d)[0]);
  decided += rows.length;
}
say(`${decided} decisions`);

console.log(
  JSON.stringify({
    ok: true,
    projectId: project.id,
    solutionId: solution.id,
    datasetId: dataset.id,
    schemeId: scheme.schemeId,
    environment: { id: env.simulatorId, jobId: env.jobId, metricsPoints: envDone.points },
    policy: { id: policy.policyId, jobId: policy.jobId },
    service: { id: service.serviceId, status: 'running' },
    decisions: decided,
    meanDecision: sum / decided,
    seconds: (Date.now() - started) / 1000,
  }),
);
