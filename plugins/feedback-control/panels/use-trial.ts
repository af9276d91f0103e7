/** One trial model per mounted page, on the compute-worker service (the browser's by default). */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { browserComputeWorkers, computeWorkerServiceRef, useOptionalService } from '@decisio/sdk-plugin';
import { TrialModel } from '../model/trial';

export function useTrial() {
  const service = useOptionalService(computeWorkerServiceRef) ?? browserComputeWorkers;
  const [model] = useState(() => new TrialModel(service.open()));
  useEffect(() => {
    void model.start('auto');
    return () => model.dispose();
  }, [model]);
  const state = useSyncExternalStore(model.subscribe, model.getState);
  return { model, state };
}
