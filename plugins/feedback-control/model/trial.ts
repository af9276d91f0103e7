/**
 * Headless state of a feedback-control trial page, driving one compute-worker session: backend
 * choice, file check, training with live curves, result. Components only render `state` and
 * call the methods. Everything runs in the browser; nothing is sent anywhere from here.
 */
import type { ComputeBackendChoice, ComputeBackendPreference, ComputeTrialPreview, ComputeWorkerSession, GfsFileCheck, GfsTrialProgress, GfsTrialRun, GfsTrialSettings } from '@decisio/sdk-plugin';

export type TrialPhase = 'idle' | 'starting' | 'checking' | 'checked' | 'training' | 'done' | 'cancelled' | 'failed';

export interface TrialState {
  phase: TrialPhase;
  preference: ComputeBackendPreference;
  choice: ComputeBackendChoice | null;
  fileName: string | null;
  check: GfsFileCheck | null;
  preview: ComputeTrialPreview | null;
  /** Live curves: every reported step's measured value. */
  modelLoss: number[];
  controllerCost: number[];
  progress: GfsTrialProgress | null;
  run: GfsTrialRun | null;
  error: string | null;
}

export const INITIAL_TRIAL_STATE: TrialState = {
  phase: 'idle',
  preference: 'auto',
  choice: null,
  fileName: null,
  check: null,
  preview: null,
  modelLoss: [],
  controllerCost: [],
  progress: null,
  run: null,
  error: null,
};

/** One page's trial. `subscribe` + `getState` fit React's `useSyncExternalStore`. */
export class TrialModel {
  private state: TrialState = INITIAL_TRIAL_STATE;
  private readonly listeners = new Set<() => void>();
  private pending: GfsTrialProgress[] = [];
  private flushScheduled = false;

  constructor(private readonly session: ComputeWorkerSession) {}

  getState = (): TrialState => this.state;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private set(patch: Partial<TrialState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /** Chooses the backend for a preference (auto: WebGPU only on a hardware adapter). */
  async start(preference: ComputeBackendPreference = this.state.preference): Promise<void> {
    this.set({ phase: this.state.check ? this.state.phase : 'starting', preference });
    try {
      const choice = await this.session.init(preference);
      // A new backend drops the previous trained networks; the checked series stay.
      this.set({ choice, phase: this.state.check?.code === 0 ? 'checked' : this.state.check ? 'checked' : 'idle', run: null });
    } catch (e) {
      this.set({ phase: 'failed', error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Checks a file (null: none given). */
  async checkFile(file: File | null): Promise<GfsFileCheck | null> {
    this.set({ phase: 'checking', fileName: file?.name ?? null, check: null, preview: null, run: null, modelLoss: [], controllerCost: [], progress: null, error: null });
    try {
      const r = await this.session.check(file);
      this.set({ phase: 'checked', check: r.check, preview: r.preview ?? null });
      return r.check;
    } catch (e) {
      this.set({ phase: 'failed', error: e instanceof Error ? e.message : String(e) });
      return null;
    }
  }

  /** Progress arrives every step; the state is updated at most once per animation frame. */
  private onProgress = (p: GfsTrialProgress): void => {
    this.pending.push(p);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const flush = () => {
      this.flushScheduled = false;
      const batch = this.pending;
      this.pending = [];
      if (batch.length === 0) return;
      const modelLoss = [...this.state.modelLoss];
      const controllerCost = [...this.state.controllerCost];
      for (const q of batch) {
        if (q.phase === 'model') modelLoss.push(q.value);
        else if (q.phase === 'controller') controllerCost.push(q.value);
      }
      this.set({ modelLoss, controllerCost, progress: batch[batch.length - 1]! });
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
    else setTimeout(flush, 16);
  };

  /** Trains on the checked file. */
  async train(settings: GfsTrialSettings = {}): Promise<GfsTrialRun | null> {
    if (this.state.check?.code !== 0) return null;
    this.pending = [];
    this.set({ phase: 'training', modelLoss: [], controllerCost: [], progress: null, run: null, error: null });
    try {
      const run = await this.session.train(settings, this.onProgress);
      this.set({ phase: 'done', run });
      return run;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.set(message.includes('cancelled') ? { phase: 'cancelled' } : { phase: 'failed', error: message });
      return null;
    }
  }

  cancel(): void {
    void this.session.cancel();
  }

  dispose(): void {
    this.session.dispose();
    this.listeners.clear();
  }
}
