/**
 * The tenant dashboard's `overview/getResource` reply (spec platform §1 "tenant dashboard:
 * resource overview"). Every caller gets their tenant's figures; the host's machines (cores,
 * memory, GPUs of the workers) only system roles.
 */

/** What the caller's tenant uses. */
export interface TenantResource {
  /** Jobs of the tenant running now (each holds one slot of a worker). */
  runningJobs: number;
  /** Jobs of the tenant waiting for a slot (or being restored). */
  waitingJobs: number;
  /** Running jobs of the tenant on a worker that has a GPU adapter. */
  gpuJobs: number;
  /** Storage of the tenant, bytes. */
  storage: { totalBytes: number; usedBytes: number };
}

/** The host's workers (system roles only). */
export interface HostResource {
  /** Online workers. */
  workers: number;
  cores: number;
  /** Bytes. */
  memory: number;
  /** Jobs the online workers run at once. */
  slots: number;
  /** Jobs of every tenant running now. */
  runningJobs: number;
  /** Online workers with a GPU adapter, and the adapters' names. */
  gpus: number;
  gpuAdapters: string[];
}

/** `overview/getResource` reply. */
export interface OverviewResource {
  /** `host` when `host` is filled in (system roles). */
  scope: 'tenant' | 'host';
  tenant: TenantResource;
  host: HostResource | null;
}
