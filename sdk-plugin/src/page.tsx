/**
 * Page pieces the panels of several plugins share (deploy, reports, business decision, policy
 * update, ...): the page column with its intro line and the form row above
 * a list; the list body that shows loading, a failure with a retry, the empty state or the table;
 * the table with its header row; and a select of choices under a "choose ..." first option.
 */
import type { CSSProperties, ReactNode } from 'react';
import { failureMessage } from './format';
import { useNotify } from './react';
import { Button, Callout, Classes, FormGroup, HTMLSelect, HTMLTable, Spinner } from '@blueprintjs/core';

/** A panel's page: a padded column, with an optional muted intro line on top. */
export function PanelPage({ intro, children }: { intro?: ReactNode; children: ReactNode }) {
  return (
    <div style={{ padding: 12, display: 'flex', flexDirection: 'column', gap: 12 }}>
      {intro && (
        <p className={Classes.TEXT_MUTED} style={{ margin: 0 }}>
          {intro}
        </p>
      )}
      {children}
    </div>
  );
}

/** A form laid out in one wrapping row (fields side by side, then the submit button); Enter submits. */
export function RowForm({ onSubmit, gap = 12, align = 'flex-start', children }: { onSubmit(): void; gap?: number; align?: 'flex-start' | 'flex-end'; children: ReactNode }) {
  return (
    <form
      style={{ display: 'flex', gap, alignItems: align, flexWrap: 'wrap' }}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** What {@link ListBody} reads of a query. */
export interface ListQuery {
  isLoading: boolean;
  isError: boolean;
  isFetching?: boolean;
  currentData?: unknown;
  refetch(): unknown;
}

/**
 * A spinner while the list first loads, the failure (`failed`) with a `retry` button, `empty`
 * when it is given (the caller passes it when there are no rows), else the table (`children`).
 * `current`: the caller lists only the answer for the query's current arguments (`currentData`,
 * the rows of one policy or project, never the previous one's), so the spinner also shows while
 * that answer is on its way, instead of `empty`.
 */
export function ListBody({
  query,
  failed,
  retry,
  empty,
  spinnerSize = 32,
  current = false,
  children,
}: {
  query: ListQuery;
  failed: string;
  retry: string;
  empty: ReactNode;
  spinnerSize?: number;
  current?: boolean;
  children: ReactNode;
}) {
  if (query.isLoading || (current && query.isFetching && query.currentData === undefined)) return <Spinner size={spinnerSize} />;
  if (query.isError)
    return (
      <Callout intent="danger" title={failed}>
        <Button text={retry} onClick={() => void query.refetch()} />
      </Callout>
    );
  return <>{empty || children}</>;
}

/** A striped, compact, full-width table: one header cell per column, the rows in `tbody` (test id `testId`). */
export function DataTable({ columns, testId, interactive, style, children }: { columns: ReactNode[]; testId?: string; interactive?: boolean; style?: CSSProperties; children: ReactNode }) {
  return (
    <HTMLTable striped interactive={interactive} compact style={{ width: '100%', ...style }}>
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i}>{c}</th>
          ))}
        </tr>
      </thead>
      <tbody data-testid={testId}>{children}</tbody>
    </HTMLTable>
  );
}

/** One choice of a {@link ChoiceSelect}. */
export interface Choice {
  value: string;
  label: string;
}

/** Props of {@link ChoiceSelect}. */
export interface ChoiceSelectProps {
  id: string;
  value: string;
  onChange(value: string): void;
  /** Text of the first, empty option: "choose ..." or "none yet". */
  placeholder: string;
  choices: readonly Choice[];
  fill?: boolean;
  disabled?: boolean;
}

/** A select of `choices` under a first, empty option. */
export function ChoiceSelect({ id, value, onChange, placeholder, choices, fill, disabled }: ChoiceSelectProps) {
  return (
    <HTMLSelect id={id} fill={fill} value={value} disabled={disabled} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">{placeholder}</option>
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </HTMLSelect>
  );
}

/** A labelled {@link ChoiceSelect}: `required` marks the label, `error` shows under it in red. */
export function ChoiceField({ label, required, error, ...select }: ChoiceSelectProps & { label: string; required?: boolean; error?: string | undefined }) {
  return (
    <FormGroup label={label} labelFor={select.id} labelInfo={required ? '*' : undefined} intent={error ? 'danger' : 'none'} helperText={error}>
      <ChoiceSelect {...select} />
    </FormGroup>
  );
}

/** Whether a failed call carries errors by field. */
export function isFieldErrors(err: unknown): err is { errors: Record<string, string> } {
  return typeof err === 'object' && err !== null && 'errors' in err && typeof (err as { errors: unknown }).errors === 'object' && (err as { errors: unknown }).errors !== null;
}

/** The errors by field of a failed call (`{}` when it has none). */
export function fieldErrorsOf(err: unknown): Record<string, string> {
  return isFieldErrors(err) ? err.errors : {};
}

/**
 * Tells the user that a call failed (its message, else `fallback`), unless the workbench
 * already did: `const fail = useFailureNotice(); ... catch (err) { fail(err, t('x.failed')); }`.
 */
export function useFailureNotice(): (err: unknown, fallback: string) => void {
  const notify = useNotify();
  return (err, fallback) => {
    const message = failureMessage(err, fallback);
    if (message) notify({ message, intent: 'danger', icon: 'error' });
  };
}

/**
 * A trained policy's return in its learned environment against the cloned behaviour's on the same
 * evaluation (`config.behaviourReward`, written by the policy job): `behind` when the policy does
 * not exceed the data's own decisions there, and is offered for deployment with a warning; null
 * when either was not measured (a policy trained before the job wrote it).
 */
export function policyGain(p: { reward?: number | null; config?: Record<string, unknown> | null }): { reward: number; behaviour: number; behind: boolean } | null {
  const behaviour = p.config?.['behaviourReward'];
  if (typeof p.reward !== 'number' || !Number.isFinite(p.reward) || typeof behaviour !== 'number' || !Number.isFinite(behaviour)) return null;
  return { reward: p.reward, behaviour, behind: p.reward <= behaviour };
}

/** Whether a policy (or any training) finished training: it can be deployed and decide. */
export function isTrained(p: { state: string }): boolean {
  return p.state === 'successful' || p.state === 'successful by manual stop';
}
