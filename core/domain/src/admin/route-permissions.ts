/**
 * The route table of permissions: which permission a signed-in call needs, keyed by the first
 * segment of its path (`/api/<segment>/...`). The server checks it centrally in the `auth` step of
 * every route, so a new call under a known segment is covered without writing anything; a
 * signed-in call under a segment missing here is refused (`userNotPermission`), and a test walks
 * the server's routes to prove that every one of them is listed.
 *
 * A value is the permissions of which the caller needs at least one; `null` means any signed-in
 * user (self-service calls: their own account, messages, tickets, licences). Write calls of the
 * admin area check their `<resource>:write` permission on top, in the route.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, readonly string[] | null>> = {
  // public (no sign-in) and self-service
  index: null,
  'openapi.json': null,
  docs: null,
  user: null,
  userCenter: null,
  message: null,
  workOrder: null,
  sdkLicense: null,
  sdkVersion: null,
  captcha: null,
  // the electric demo's public calls (no sign-in, rate-limited)
  electricShow: null,
  // console areas (one side-menu page each)
  overview: ['dashboard:use'],
  project: ['projects:use'],
  solution: ['projects:use'],
  scheme: ['projects:use'],
  simulator: ['projects:use'],
  simulation: ['projects:use'],
  policy: ['projects:use'],
  decision: ['projects:use'],
  objective: ['projects:use'],
  train: ['projects:use'],
  trainParameter: ['projects:use'],
  trainPolicy: ['projects:use'],
  trainSimulator: ['projects:use'],
  trainSSH: ['projects:use'],
  modeldeploy: ['projects:use'],
  businessDecision: ['projects:use'],
  report: ['projects:use'],
  atmVersion: ['projects:use'],
  virtualMachine: ['projects:use'],
  // the TensorBoard proxy of a training (`/api/tensorboard/<jobId>/...`, mounted ahead of the router)
  tensorboard: ['projects:use'],
  gfs: ['projects:use'],
  ssh: ['projects:use'],
  // the job contract (job/get, wait, events) of trainings and imports
  job: ['projects:use', 'datasets:use', 'connections:use'],
  pidData: ['projects:use'],
  workflow: ['projects:use'],
  table: ['projects:use', 'datasets:use'],
  dataSource: ['projects:use', 'datasets:use'],
  file: ['projects:use', 'datasets:use', 'storage:use'],
  metadata: ['connections:use', 'projects:use', 'datasets:use'],
  jobJdbcDatasource: ['connections:use', 'projects:use', 'datasets:use'],
  template: ['templates:use'],
  // the template storehouse (issue 20 item 3) and the model market (item 5)
  templateWarehouse: ['templates:use'],
  market: ['projects:use'],
  hyperparameter: ['hyperparameters:use', 'projects:use'],
  // admin area
  users: ['users:read'],
  roles: ['roles:read'],
  menus: ['menus:read'],
  orgs: ['orgs:read'],
  tenant: ['tenants:read'],
  logs: ['logs:read'],
  jobs: ['jobs:read'],
  outbox: ['outbox:read'],
  // the public contact form's entries (contact/getContactList; contact/handleContact also needs contacts:write)
  contact: ['contacts:read'],
};

/**
 * Self-service calls under an admin segment (the spec names them `users/...`): any signed-in user
 * may make them, for their own account only.
 */
export const SELF_SERVICE_PATHS: ReadonlySet<string> = new Set(['/api/users/getUserInfo', '/api/users/updateUserCenter']);

/** The segment of a call path: `/api/users/addUser` -> `users`. */
export function routeSegment(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return (parts[0] === 'api' ? parts[1] : parts[0]) ?? '';
}
