/** React access to the running workbench (shell components only; plugins use the SDK hooks). */
import { createContext, useContext } from 'react';
import type { Workbench } from './workbench';

/** The running workbench. */
export const WorkbenchContext = createContext<Workbench | null>(null);

/** The running workbench. @throws Error outside `<WorkbenchRoot>`. */
export function useWorkbench(): Workbench {
  const w = useContext(WorkbenchContext);
  if (!w) throw new Error('useWorkbench() outside <WorkbenchRoot>');
  return w;
}
