/** Pieces the admin screens share: the texts of the SDK's CRUD screen, tree rows, id selects. */
import { HTMLSelect, type HTMLSelectProps } from '@blueprintjs/core';
import { crudErrorText, type CrudLabels } from '@decisio/sdk-plugin';
import { useAdminT } from '../i18n';

/** The CRUD screen's texts from the admin bundle's `common.*` keys. */
export function useCrudLabels(): CrudLabels {
  const { t } = useAdminT();
  return {
    loading: t('common.loading'),
    loadFailed: t('common.loadFailed'),
    retry: t('common.retry'),
    refresh: t('common.refresh'),
    actions: t('common.actions'),
    edit: t('common.edit'),
    delete: t('common.delete'),
    cancel: t('common.cancel'),
    save: t('common.save'),
    deleted: t('common.deleted'),
    failed: t('common.failed'),
    prev: t('common.prev'),
    next: t('common.next'),
  };
}

/** The message of a failed mutation, or `fallback`. */
export const errorText = crudErrorText;

/** Depth-first rows of a tree (`children`), each with its depth, for an indented table. */
export function flattenTree<T extends { children?: T[] }>(nodes: readonly T[], depth = 0): { node: T; depth: number }[] {
  return nodes.flatMap((n) => [{ node: n, depth }, ...flattenTree(n.children ?? [], depth + 1)]);
}

/**
 * A select of records by id: a first option with the value `''` (none / all), then one option a
 * record, showing its name.
 */
export function IdSelect(props: Omit<HTMLSelectProps, 'onChange' | 'children'> & { value: string; onChange(id: string): void; none: string; items: readonly { id: string; name: string }[] | undefined }) {
  const { onChange, none, items, ...rest } = props;
  return (
    <HTMLSelect {...rest} onChange={(e) => onChange(e.target.value)}>
      <option value="">{none}</option>
      {(items ?? []).map((x) => (
        <option key={x.id} value={x.id}>
          {x.name}
        </option>
      ))}
    </HTMLSelect>
  );
}
