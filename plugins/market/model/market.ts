/**
 * Headless helpers of the market page: which projects a form may offer, which trainings may be
 * published, and how a measured figure is written (never a number the server did not send).
 */
import type { ProjectItem } from '@decisio/domain';
import { isTrained } from '@decisio/sdk-plugin';

/** Projects the caller may write into (publish from, import into). */
export function editableProjects<T extends Pick<ProjectItem, 'right'>>(projects: readonly T[]): T[] {
  return projects.filter((p) => p.right === 'owner' || p.right === 'edit');
}

/** Trainings that ended with a model kept (they may be published). */
export function publishable<T extends { state: string }>(rows: readonly T[]): T[] {
  return rows.filter(isTrained);
}

/** A measured figure with two decimals, or `—` when the server measured none. */
export function figure(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(2);
}
