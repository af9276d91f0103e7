/** Test helper of the kit's tests: each trainings screen as a component for `renderPanel`. */
import type { ComponentType } from 'react';
import { TrainingsScreen, type TrainingScreen } from './TrainingsScreen';

/** The screen of `kind`; `form` opens its new-training form (the `/train` addresses). */
export function screenOf(kind: TrainingScreen, form = false): ComponentType<Record<string, unknown>> {
  const Screen = () => <TrainingsScreen screen={kind} openForm={form} />;
  Screen.displayName = `TrainingsScreen(${kind}${form ? ', form' : ''})`;
  return Screen;
}
