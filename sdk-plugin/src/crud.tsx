/**
 * The scaffolding of a CRUD screen, written once: a toolbar (the plugin's filters, refresh, an
 * add button), the load states (spinner, error with retry), the empty state, the table with a
 * row-actions column (edit, delete and the plugin's own buttons), the pager of a paged list and
 * the delete confirmation; plus the add/edit dialog around a form and the toast of a call.
 * The plugin keeps its own calls, filters, columns and form fields; texts come from its bundle
 * ({@link CrudLabels}), so nothing visible is written here.
 */
import { useState, type CSSProperties, type ReactNode } from 'react';
import { Button, ButtonGroup, Callout, DialogBody, DialogFooter, HTMLTable, NonIdealState, Spinner, type IconName, type Intent } from '@blueprintjs/core';
import { isApiError } from './api';
import { Alert, BusyButton, Dialog, useFocusBackOnUnmount, useNotify } from './react';
import { Pager } from './list';

/** The texts a CRUD screen shows, translated by the plugin (e.g. from its `common.*` keys). */
export interface CrudLabels {
  /** Title of the spinner while the list loads, e.g. "Loading…". */
  loading: string;
  /** Title of the error callout when the list call fails, e.g. "Could not load the list". */
  loadFailed: string;
  retry: string;
  refresh: string;
  /** Header of the row-actions column. */
  actions: string;
  edit: string;
  delete: string;
  cancel: string;
  save: string;
  /** Toast after a successful delete. */
  deleted: string;
  /** Toast of a failed call whose error carries no message of the catalogue. */
  failed: string;
  /** Pager buttons (paged lists only). */
  prev?: string;
  next?: string;
}

/** The message of a failed call: the catalogue's text of an {@link ApiError}, else `fallback`. */
export function crudErrorText(err: unknown, fallback: string): string {
  return isApiError(err) ? err.message : fallback;
}

/**
 * `run(action, message, icon?)`: awaits `action`, then toasts `message` (success), or the
 * call's error text (danger; `failed` when the error has none). Never throws; resolves to
 * whether the action succeeded, so a dialog closes only on success.
 */
export function useCrudRun(failed: string): (action: () => Promise<unknown>, message: string, icon?: IconName) => Promise<boolean> {
  const notify = useNotify();
  return async (action, message, icon = 'tick') => {
    try {
      await action();
      notify({ message, intent: 'success', icon });
      return true;
    } catch (err) {
      notify({ message: crudErrorText(err, failed), intent: 'danger', icon: 'error' });
      return false;
    }
  };
}

/** Spinner while `loading`; the error with a retry button when `error`; nothing otherwise. */
export function CrudLoadState(props: { loading: boolean; error: unknown; onRetry(): void; labels: Pick<CrudLabels, 'loading' | 'loadFailed' | 'retry'> }) {
  const { labels } = props;
  if (props.loading) return <NonIdealState icon={<Spinner size={32} />} title={labels.loading} />;
  if (!props.error) return null;
  return (
    <Callout intent="danger" icon="error" title={labels.loadFailed}>
      {isApiError(props.error) ? props.error.message : null}{' '}
      <Button minimal small onClick={props.onRetry}>
        {labels.retry}
      </Button>
    </Callout>
  );
}

/** One column of a {@link CrudScreen} table. */
export interface CrudColumn<T> {
  /** Stable React key of the column. */
  key: string;
  header: ReactNode;
  cell(row: T): ReactNode;
  /** Style of the cell (`<td>`), fixed or per row (e.g. the indent of a tree row). */
  style?: CSSProperties | ((row: T) => CSSProperties);
}

/** The row-actions column of a {@link CrudScreen}: buttons in this order: lead, edit, more, delete. */
export interface CrudRowActions<T> {
  /** Buttons before "edit" (e.g. "add a child", "permissions"). */
  lead?(row: T): ReactNode;
  /** Shows an "edit" button that calls this. */
  edit?(row: T): void;
  /** Buttons between "edit" and "delete" (e.g. stop/start, reset). */
  more?(row: T): ReactNode;
  /**
   * Shows a "delete" button; it opens a confirmation with `confirm(row)` as its text and, when
   * confirmed, runs `run(row)` and toasts `labels.deleted` (or the call's error).
   */
  delete?: { confirm(row: T): ReactNode; run(row: T): Promise<unknown> };
  /**
   * Rows whose edit and delete buttons are disabled (e.g. built-in records); a string is the
   * reason, the disabled buttons' tooltip.
   */
  locked?(row: T): boolean | string;
  /** Rows whose delete button alone is disabled (e.g. a record still in use); a string is the reason, its tooltip. */
  deleteLocked?(row: T): boolean | string;
}

/** Props of {@link CrudScreen}. */
export interface CrudScreenProps<T> {
  /** `data-testid` of the panel body. */
  testId: string;
  labels: CrudLabels;
  /** The plugin's filters (search box, selects), at the left of the toolbar. */
  filters?: ReactNode;
  /** The list call's state; `onRefresh` is also the retry of a failed load. */
  loading: boolean;
  error: unknown;
  onRefresh(): void;
  /** The add button at the right of the toolbar; absent or `false`: none (e.g. no right to add). */
  add?: false | { label: ReactNode; onClick(): void; icon?: IconName; testId?: string };
  /** Rows shown; `undefined` until the list has loaded (no empty state then). */
  rows: readonly T[] | undefined;
  /** Rows in all, for a paged list: the empty state shows when it is 0 (else when `rows` is empty). */
  total?: number;
  /** The empty state (use a "no match" title when filters are set). */
  empty: { icon: IconName; title: ReactNode; description?: ReactNode };
  columns: readonly CrudColumn<T>[];
  rowKey(row: T): string;
  tableTestId?: string;
  rowTestId?: string;
  /** The row-actions column; absent: no such column. */
  actions?: CrudRowActions<T>;
  /** The pager under the table of a paged list; `text` stands between its buttons. */
  pager?: { page: number; pages: number; onPage(page: number): void; text: ReactNode };
  /** Dialogs of the screen (add/edit form, other confirmations). */
  children?: ReactNode;
}

/** Props of a row button that a lock (`true`, or its reason) disables: the reason is its tooltip. */
function lockProps(lock: boolean | string | undefined): { disabled?: boolean; title?: string } {
  if (!lock) return {};
  return typeof lock === 'string' ? { disabled: true, title: lock } : { disabled: true };
}

/**
 * A list screen with add, edit and delete:
 *
 * ```tsx
 * const list = api.endpoints['notes/list'].useQuery();
 * const [remove] = api.endpoints['notes/delete'].useMutation();
 * const [editing, setEditing] = useState<{ note: Note | null } | null>(null);
 * <CrudScreen testId="notes-panel" labels={labels} loading={list.isLoading} error={list.error} onRefresh={() => void list.refetch()}
 *   add={{ label: t('notes.add'), onClick: () => setEditing({ note: null }) }}
 *   rows={list.data} empty={{ icon: 'document', title: t('notes.empty') }} rowKey={(n) => n.id}
 *   columns={[{ key: 'title', header: t('notes.title'), cell: (n) => n.title }]}
 *   actions={{ edit: (n) => setEditing({ note: n }), delete: { confirm: (n) => t('notes.deleteConfirm', { name: n.title }), run: (n) => remove({ id: n.id }).unwrap() } }}>
 *   {editing && <NoteDialog note={editing.note} onClose={() => setEditing(null)} />}
 * </CrudScreen>
 * ```
 */
export function CrudScreen<T>(props: CrudScreenProps<T>) {
  const { labels, rows, actions, pager } = props;
  const [deleting, setDeleting] = useState<T | null>(null);
  const run = useCrudRun(labels.failed);
  const empty = rows !== undefined && (props.total ?? rows.length) === 0;
  const shown = rows !== undefined && !empty;
  const cellStyle = (c: CrudColumn<T>, row: T) => (typeof c.style === 'function' ? c.style(row) : c.style);

  return (
    <div className="dc-panel" style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }} data-testid={props.testId}>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        {props.filters}
        <span style={{ flex: 1 }} />
        <Button icon="refresh" onClick={props.onRefresh} aria-label={labels.refresh} title={labels.refresh} />
        {props.add && (
          <Button icon={props.add.icon ?? 'add'} intent="primary" onClick={props.add.onClick} data-testid={props.add.testId}>
            {props.add.label}
          </Button>
        )}
      </div>
      <CrudLoadState loading={props.loading} error={props.error} onRetry={props.onRefresh} labels={labels} />
      {empty && <NonIdealState icon={props.empty.icon} title={props.empty.title} description={props.empty.description} />}
      {shown && (
        <HTMLTable striped compact style={{ width: '100%' }} data-testid={props.tableTestId}>
          <thead>
            <tr>
              {props.columns.map((c) => (
                <th key={c.key}>{c.header}</th>
              ))}
              {actions && <th>{labels.actions}</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={props.rowKey(row)} data-testid={props.rowTestId}>
                {props.columns.map((c) => (
                  <td key={c.key} style={cellStyle(c, row)}>
                    {c.cell(row)}
                  </td>
                ))}
                {actions && (
                  <td>
                    <ButtonGroup minimal>
                      {actions.lead?.(row)}
                      {actions.edit && (
                        <Button small icon="edit" {...lockProps(actions.locked?.(row))} onClick={() => actions.edit!(row)}>
                          {labels.edit}
                        </Button>
                      )}
                      {actions.more?.(row)}
                      {actions.delete && (
                        <Button small icon="trash" intent="danger" {...lockProps(actions.locked?.(row) || actions.deleteLocked?.(row))} onClick={() => setDeleting(row)}>
                          {labels.delete}
                        </Button>
                      )}
                    </ButtonGroup>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {shown && pager && (
        <Pager small page={pager.page} pages={pager.pages} onPage={pager.onPage} prevLabel={labels.prev ?? ''} nextLabel={labels.next ?? ''}>
          {pager.text}
        </Pager>
      )}
      {props.children}
      {actions?.delete && (
        <CrudConfirm
          target={deleting}
          intent="danger"
          icon="trash"
          confirmLabel={labels.delete}
          cancelLabel={labels.cancel}
          onCancel={() => setDeleting(null)}
          onConfirm={(row) => {
            setDeleting(null);
            void run(() => actions.delete!.run(row), labels.deleted, 'trash');
          }}
        >
          {(row) => actions.delete!.confirm(row)}
        </CrudConfirm>
      )}
    </div>
  );
}

/** Props of {@link CrudConfirm}. */
export interface CrudConfirmProps<T> {
  /** The record asked about; `null`: closed. */
  target: T | null;
  onCancel(): void;
  /** Called with the target; the caller closes the alert (sets `target` to `null`). */
  onConfirm(target: T): void;
  confirmLabel: string;
  cancelLabel: string;
  intent?: Intent;
  icon?: IconName;
  /** The question, e.g. "Delete alice?". */
  children(target: T): ReactNode;
}

/** A confirmation (the SDK's {@link Alert}: it opens with the focus on Cancel; Escape cancels) about one record. */
export function CrudConfirm<T>(props: CrudConfirmProps<T>) {
  const { target } = props;
  return (
    <Alert
      isOpen={target !== null}
      intent={props.intent ?? 'danger'}
      icon={props.icon ?? 'trash'}
      confirmButtonText={props.confirmLabel}
      cancelButtonText={props.cancelLabel}
      canEscapeKeyCancel
      onCancel={props.onCancel}
      onConfirm={() => {
        if (target !== null) props.onConfirm(target);
      }}
    >
      {target !== null ? props.children(target) : null}
    </Alert>
  );
}

/**
 * The form-level error of a form: what a failed call says that belongs to no one field (e.g. the
 * `_form` entry of the trainings kit's `serverErrors`), in one danger callout with the error icon
 * and `data-testid="form-error"`; nothing when `message` is empty.
 * {@link CrudForm} and {@link CrudFormDialog} show it above the fields from their `formError`;
 * use this component where the form is not one of them (e.g. an editor in a card).
 */
export function FormErrorCallout(props: { message?: string; style?: CSSProperties }) {
  if (!props.message) return null;
  return (
    <Callout intent="danger" icon="error" style={props.style} data-testid="form-error">
      {props.message}
    </Callout>
  );
}

/** Props of {@link CrudForm}: the form and its Cancel / Save footer. */
export interface CrudFormProps {
  /** `id` of the `<form>`; the save button submits it, so Enter in a field saves too. */
  formId: string;
  /** `data-testid` of the `<form>`. */
  formTestId?: string;
  /** The form checks its own fields: no browser validation bubbles (`noValidate`). */
  noValidate?: boolean;
  /** Called by Cancel (and, in {@link CrudFormDialog}, by Escape and the close button). */
  onClose(): void;
  /** Called on submit (default prevented): check the fields, call, close on success. */
  onSubmit(): void;
  /**
   * The save call is running (the save button spins). A busy button drops the focus to the page;
   * when the call ends with the form still open (it failed), the focus comes back to Save.
   */
  saving: boolean;
  /** The save button is disabled (e.g. while another call of the form runs); Enter does not submit then. */
  saveDisabled?: boolean;
  /** Title of the save button: why it is disabled (e.g. the project's `useProjectEditRight` reason). */
  saveTitle?: string;
  saveTestId?: string;
  /** Text of the save button, e.g. "Save", "Create" or "Start training". */
  labels: Pick<CrudLabels, 'cancel' | 'save'>;
  /** More buttons of the footer, between Cancel and Save (e.g. a connection test). */
  actions?: ReactNode;
  /**
   * The form-level error (a failed call's message that belongs to no one field): shown above the
   * fields in a {@link FormErrorCallout}; absent or empty: none.
   */
  formError?: string;
  /** The form's fields. */
  children: ReactNode;
}

/**
 * The body of {@link CrudFormDialog} without the dialog: a `<form>` around the children (the
 * `formError` callout first), and Cancel, the plugin's `actions` and Save under it. For a dialog
 * that shows something else first (e.g. a spinner while the data the form starts from loads) and
 * then this form.
 */
export function CrudForm(props: CrudFormProps) {
  // A dialog rendered only while open is removed at once when it closes: the focus goes back to its
  // opener. In the SDK's Dialog mounted open (CrudFormDialog's), the dialog does it and this does nothing.
  useFocusBackOnUnmount();
  return (
    <>
      <DialogBody>
        <form
          id={props.formId}
          data-testid={props.formTestId}
          noValidate={props.noValidate}
          onSubmit={(e) => {
            e.preventDefault();
            if (!props.saveDisabled) props.onSubmit();
          }}
        >
          <FormErrorCallout message={props.formError} style={{ marginBottom: 12 }} />
          {props.children}
        </form>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={props.onClose}>{props.labels.cancel}</Button>
            {props.actions}
            {/* The busy Save drops the focus to the page; a failed save leaves the dialog open: it comes back to Save. */}
            <BusyButton type="submit" form={props.formId} intent="primary" loading={props.saving} disabled={props.saveDisabled} title={props.saveTitle} data-testid={props.saveTestId}>
              {props.labels.save}
            </BusyButton>
          </>
        }
      />
    </>
  );
}

/** Props of {@link CrudFormDialog}. */
export interface CrudFormDialogProps extends CrudFormProps {
  title: ReactNode;
  /** Dialog width in px (e.g. `DIALOG_WIDTH.sm` of `@decisio/domain`). */
  width: number;
  /** Whether the dialog shows (default `true`: render it only while it is open). */
  isOpen?: boolean;
}

/**
 * The add/edit dialog of a record: a form (its `formError`, if any, in a {@link FormErrorCallout}
 * above the fields), and Cancel / Save under it; Escape cancels. It is the SDK's `Dialog`: it opens
 * with the focus on the first enabled field unless a field has `autoFocus`, and, rendered only while
 * open, gives the focus back to its opener when it goes.
 */
export function CrudFormDialog({ title, width, isOpen = true, ...form }: CrudFormDialogProps) {
  return (
    <Dialog isOpen={isOpen} onClose={form.onClose} title={title} style={{ width }} canEscapeKeyClose>
      <CrudForm {...form} />
    </Dialog>
  );
}

/**
 * The `FormGroup` props of a field named in `invalid` (the first path segments of a zod error's
 * issues): `{ intent: 'danger', helperText }`, or `{}` for a valid field.
 */
export function invalidField(invalid: readonly string[], field: string, helperText: string): { intent?: 'danger'; helperText?: string } {
  return invalid.includes(field) ? { intent: 'danger', helperText } : {};
}
