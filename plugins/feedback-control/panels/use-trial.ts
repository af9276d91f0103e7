/**
 * One trial model per mounted page, on the compute-worker service (the browser's by default).
 * The worker is opened in the effect (not during render), so that React's strict-mode
 * mount/unmount/mount gets a fresh worker instead of a disposed one.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { browserComputeWorkers, computeWorkerServiceRef, useOptionalService } from '@decisio/sdk-plugin';
import { INITIAL_TRIAL_STATE, TrialModel, type TrialState } from '../model/trial';

const noSubscribe = () => () => undefined;
const initial = (): TrialState => INITIAL_TRIAL_STATE;

export function useTrial(): { model: TrialModel | null; state: TrialState } {
  const service = useOptionalService(computeWorkerServiceRef) ?? browserComputeWorkers;
  const [model, setModel] = useState<TrialModel | null>(null);
  useEffect(() => {
    const m = new TrialModel(service.open());
    setModel(m);
    void m.start('auto');
    return () => m.dispose();
  }, [service]);
  const state = useSyncExternalStore(model?.subscribe ?? noSubscribe, model?.getState ?? initial);
  return { model, state };
}
