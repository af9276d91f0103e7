import type { z } from 'zod';
import { jobViewSchema, jobWaitReplySchema } from '../jobs/schemas';

/**
 * What the API description (`GET /api/openapi.json`) says of a call beyond its request schema,
 * which the server reads from the route itself: a summary, and the schema of its reply's `data`
 * where the domain has one. Keys are `METHOD /path` without the `/api` prefix.
 */
export interface ApiCallDoc {
  summary: string;
  reply?: z.ZodType;
}

/** The calls of the scripted flow (docs/examples/client.mjs) and the job contract. */
export const API_CALLS: Record<string, ApiCallDoc> = {
  'POST /index/getPublicKey': { summary: 'RSA-OAEP public key (SPKI, base64) and a one-time nonce: encrypt every account password with a fresh one' },
  'POST /index/signUp': { summary: 'Create an account (password encrypted with a fresh public key answer)' },
  'POST /index/signIn': { summary: 'Sign in: answers `accessToken`, sent as the `Authorization` header of every other call' },
  'POST /file/uploadpartinit': { summary: 'Start a multipart upload: answers `uploadId`, `partSize`, `partCount`' },
  'PUT /file/uploadOneFile': { summary: 'Upload one part (`?uploadId=&partNumber=`, raw bytes)' },
  'POST /file/uploadPartComplete': { summary: 'Finish an upload: answers `fileId`' },
  'POST /table/create': { summary: 'A dataset (table) from an uploaded file: answers `tableId` (also `id`, `datasetId`)' },
  'POST /table/getAccessKey': { summary: 'A key reading one dataset without signing in until it expires: answers `url` (Parquet) and `csvUrl`' },
  'POST /table/revokeAccessKeys': { summary: "Every access key of a dataset made so far stops reading (the dataset's owner)" },
  'GET /table/data': { summary: 'Read a dataset with its access key (`?accessKey=`, `&format=csv`); at most 30 reads a minute per address' },
  'POST /project/createProject': { summary: 'Create a project: answers `projectId` (also `id`)' },
  'POST /solution/create': { summary: 'Create a solution in a project: answers `solutionId` (also `id`)' },
  'POST /solution/setPattern': { summary: 'Save the decision graph of a solution' },
  'POST /solution/setTableCorrelation': { summary: 'Name the primary table and its trajectory, sequence and (optional) datetime fields' },
  'POST /scheme/create': { summary: 'Create a scheme (period and range optional): answers `id` (also `schemeId`)' },
  'POST /scheme/schemeDataProcess': { summary: "Process a scheme's data: answers `jobId` (follow it with job/wait)" },
  'POST /objective/create': { summary: 'Create a reward (reward.py): answers `id` (also `objectiveId`)' },
  'POST /trainSimulator/create': { summary: 'Start an environment training (stop conditions default to "the system decides"): answers the record with `jobId`' },
  'POST /trainPolicy/create': { summary: 'Start a policy training (PPO or SAC) in a trained environment with a reward: answers the record with `jobId`' },
  'POST /trainParameter/create': { summary: 'Start a tunable-parameter search: answers the record with `jobId`' },
  'POST /simulation/create': { summary: 'Start a simulation deduction: answers the record with `jobId`' },
  'POST /decision/create': { summary: 'Start a decision deduction: answers the record with `jobId`' },
  'POST /train/getTrainDisplayDataList': { summary: "A job's metrics series by range (`points` after `afterPoint`, from `fromStep`, only `names`; the shape of the `metrics` events of job/events)" },
  'POST /train/stopTrain': { summary: 'Stop a training in progress' },
  'POST /modeldeploy/create': { summary: 'Deploy a policy as a model service (`start: true` starts it too; `waitSeconds` answers once settled); the access token is shown once' },
  'POST /modeldeploy/start': { summary: 'Start a model service (waiting or failed): follow it with job/wait on its id' },
  'POST /modeldeploy/stop': { summary: 'Stop a running model service' },
  'POST /modeldeploy/queryDetail': { summary: "A model service with its inputs and outputs (the decision call's fields)" },
  'POST /job/get': { summary: 'Any job (training, scheme processing, deduction, import) or model service by id: state, progress, failure reason, kind, owner', reply: jobViewSchema },
  'POST /job/wait': { summary: 'Long poll: answers once the state differs from `state` (or is final), or after `timeoutSeconds` (at most 60)', reply: jobWaitReplySchema },
  'GET /job/events': { summary: 'Server-Sent Events of a job (`?jobId=`, `&logs=1` for its log lines): `state` (a job view) on every change, `metrics` (one new point each, to append); the SSE id is the cursor for `Last-Event-ID`; ends after a final state' },
};
