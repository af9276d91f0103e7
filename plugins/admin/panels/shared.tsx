/** Pieces the admin screens share: the load states and the error toast of a failed call. */
import { Button, Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import { isApiError } from '@decisio/sdk-plugin';
import type { ReactNode } from 'react';
import { useAdminT } from '../i18n';

/** Loading spinner, or the error with a retry button, of one query. */
export function LoadState(props: { loading: boolean; error: unknown; onRetry: () => void }) {
  const { t } = useAdminT();
  if (props.loading) return <NonIdealState icon={<Spinner size={32} />} title={t('common.loading')} />;
  if (!props.error) return null;
  return (
    <Callout intent="danger" icon="error" title={t('common.loadFailed')}>
      {isApiError(props.error) ? props.error.message : null}{' '}
      <Button minimal small onClick={props.onRetry}>
        {t('common.retry')}
      </Button>
    </Callout>
  );
}

/** The message of a failed mutation, or `fallback`. */
export function errorText(err: unknown, fallback: string): string {
  return isApiError(err) ? err.message : fallback;
}

/** A padded, scrolling panel body. */
export function PanelBody(props: { children: ReactNode; testId: string }) {
  return (
    <div className="dc-panel" style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }} data-testid={props.testId}>
      {props.children}
    </div>
  );
}

/** Depth-first rows of a tree (`children`), each with its depth, for an indented table. */
export function flattenTree<T extends { children?: T[] }>(nodes: readonly T[], depth = 0): { node: T; depth: number }[] {
  return nodes.flatMap((n) => [{ node: n, depth }, ...flattenTree(n.children ?? [], depth + 1)]);
}
