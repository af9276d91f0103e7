import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ApiError } from './api';
import { Dialog } from '@blueprintjs/core';
import { CrudForm, CrudFormDialog, CrudScreen, FormErrorCallout, invalidField, type CrudLabels } from './crud';
import { createTestHost, pressBusy, withHost, type TestHost } from './testing';
import * as sdk from './index';

afterEach(() => cleanup());

const labels: CrudLabels = {
  loading: 'Loading…',
  loadFailed: 'Could not load',
  retry: 'Retry',
  refresh: 'Refresh',
  actions: 'Actions',
  edit: 'Edit',
  delete: 'Delete',
  cancel: 'Cancel',
  save: 'Save',
  deleted: 'Deleted',
  failed: 'It failed',
  prev: 'Previous page',
  next: 'Next page',
};

interface Note {
  id: string;
  title: string;
  builtIn?: boolean;
}

const apiError = (message: string): ApiError => ({ kind: 'api', code: 1001, message, handled: false });

function Notes(props: { rows?: Note[]; total?: number; loading?: boolean; error?: unknown; onRefresh?(): void; remove?(n: Note): Promise<unknown>; edited?: Note[]; withPager?: boolean; page?: number; onPage?(p: number): void; noAdd?: boolean }) {
  const [editing, setEditing] = useState<Note | 'new' | null>(null);
  return (
    <CrudScreen<Note>
      testId="notes-panel"
      labels={labels}
      filters={<input aria-label="Search" />}
      loading={props.loading ?? false}
      error={props.error}
      onRefresh={props.onRefresh ?? (() => undefined)}
      add={!props.noAdd && { label: 'Add note', onClick: () => setEditing('new'), testId: 'notes-add' }}
      rows={props.rows}
      total={props.total}
      empty={{ icon: 'document', title: 'No notes yet' }}
      tableTestId="notes-table"
      rowTestId="note-row"
      rowKey={(n) => n.id}
      columns={[{ key: 'title', header: 'Title', cell: (n) => n.title, style: (n) => ({ fontWeight: n.builtIn ? 700 : 400 }) }]}
      actions={{
        lead: (n) => <button type="button">Open {n.title}</button>,
        edit: (n) => {
          props.edited?.push(n);
          setEditing(n);
        },
        delete: { confirm: (n) => `Delete ${n.title}?`, run: (n) => props.remove?.(n) ?? Promise.resolve() },
        locked: (n) => Boolean(n.builtIn),
      }}
      pager={props.withPager ? { page: props.page ?? 1, pages: 3, onPage: props.onPage ?? (() => undefined), text: `Page ${props.page ?? 1} of 3` } : undefined}
    >
      {editing && <div data-testid="note-dialog">{editing === 'new' ? 'new' : editing.title}</div>}
    </CrudScreen>
  );
}

function show(host: TestHost, el: React.ReactElement) {
  return render(withHost(host, el));
}

describe('CrudScreen', () => {
  it('shows the spinner while loading, then the error with a retry that refreshes', () => {
    const host = createTestHost();
    let refreshed = 0;
    const { rerender } = show(host, <Notes loading rows={undefined} />);
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(screen.queryByText('No notes yet')).toBeNull();
    rerender(withHost(host, <Notes rows={undefined} error={apiError('The server is busy')} onRefresh={() => refreshed++} />));
    expect(screen.getByText('Could not load')).toBeTruthy();
    expect(screen.getByText('The server is busy')).toBeTruthy();
    fireEvent.click(screen.getByText('Retry'));
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(refreshed).toBe(2);
    expect(screen.queryByTestId('notes-table')).toBeNull();
  });

  it('shows the empty state for no rows, or a total of 0 in a paged list, and no table or pager', () => {
    const host = createTestHost();
    const { rerender } = show(host, <Notes rows={[]} />);
    expect(screen.getByText('No notes yet')).toBeTruthy();
    rerender(withHost(host, <Notes rows={[]} total={0} withPager />));
    expect(screen.getByText('No notes yet')).toBeTruthy();
    expect(screen.queryByTestId('notes-table')).toBeNull();
    expect(screen.queryByText('Page 1 of 3')).toBeNull();
  });

  it('renders the columns, the row actions in order and the pager; locked rows cannot be edited or deleted', () => {
    const host = createTestHost();
    const pages: number[] = [];
    const edited: Note[] = [];
    show(host, <Notes rows={[{ id: 'a', title: 'Alpha' }, { id: 'b', title: 'Beta', builtIn: true }]} total={41} withPager page={2} onPage={(p) => pages.push(p)} edited={edited} />);
    const rows = screen.getAllByTestId('note-row');
    expect(rows).toHaveLength(2);
    expect(within(screen.getByTestId('notes-table')).getByText('Actions')).toBeTruthy();
    expect(within(rows[0]!).getAllByRole('button').map((b) => b.textContent)).toEqual(['Open Alpha', 'Edit', 'Delete']);
    expect((within(rows[1]!).getByRole('button', { name: 'Edit' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(rows[1]!).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(rows[1]!).getByText('Beta') as HTMLElement).style.fontWeight).toBe('700');
    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Edit' }));
    expect(edited.map((n) => n.id)).toEqual(['a']);
    expect(screen.getByTestId('note-dialog').textContent).toBe('Alpha');
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(pages).toEqual([3]);
  });

  it('opens the add dialog from the toolbar, and shows no add button when add is false', () => {
    const host = createTestHost();
    const { rerender } = show(host, <Notes rows={[]} />);
    fireEvent.click(screen.getByTestId('notes-add'));
    expect(screen.getByTestId('note-dialog').textContent).toBe('new');
    rerender(withHost(host, <Notes rows={[]} noAdd />));
    expect(screen.queryByTestId('notes-add')).toBeNull();
  });

  it('deletes only after the confirmation, toasting the result or the error', async () => {
    const host = createTestHost();
    const removed: string[] = [];
    const remove = async (n: Note) => {
      removed.push(n.id);
      if (n.id === 'b') throw apiError('Still in use');
    };
    show(host, <Notes rows={[{ id: 'a', title: 'Alpha' }, { id: 'b', title: 'Beta' }]} remove={remove} />);
    const [alpha, beta] = screen.getAllByTestId('note-row');
    fireEvent.click(within(alpha!).getByRole('button', { name: 'Delete' }));
    const first = await screen.findByRole('alertdialog');
    expect(within(first).getByText('Delete Alpha?')).toBeTruthy();
    fireEvent.click(within(first).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(removed).toEqual([]);

    fireEvent.click(within(alpha!).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(host.toasts.map((n) => n.message)).toEqual(['Deleted']));
    expect(removed).toEqual(['a']);

    fireEvent.click(within(beta!).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByRole('alertdialog').length).toBeGreaterThan(0));
    const dialogs = screen.getAllByRole('alertdialog');
    fireEvent.click(within(dialogs[dialogs.length - 1]!).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(host.toasts.map((n) => [n.message, n.intent])).toEqual([['Deleted', 'success'], ['Still in use', 'danger']]));
    expect(removed).toEqual(['a', 'b']);
  });
});

describe('CrudFormDialog', () => {
  it('submits the form from the save button and from Enter, and cancels', () => {
    const host = createTestHost();
    let submitted = 0;
    let closed = 0;
    show(
      host,
      <CrudFormDialog title="Add a note" width={480} formId="note-form" onClose={() => closed++} onSubmit={() => submitted++} saving={false} saveTestId="note-save" labels={labels}>
        <input aria-label="Title" />
      </CrudFormDialog>,
    );
    expect(screen.getByText('Add a note')).toBeTruthy();
    fireEvent.click(screen.getByTestId('note-save'));
    fireEvent.submit(screen.getByLabelText('Title').closest('form')!);
    expect(submitted).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(closed).toBe(1);
  });
});

describe('CrudFormDialog is the SDK Dialog', () => {
  it("needs no helper for a Blueprint dialog drawn by hand: the SDK's public surface has none", () => {
    expect(Object.keys(sdk)).not.toContain('focusDialogFirstControl');
    expect(Object.keys(sdk)).not.toContain('focusDialogFirstControlSoon');
    expect(typeof sdk.Dialog).toBe('function');
  });
});

describe('CrudFormDialog, the focus when it opens', () => {
  it('gives the focus to the first enabled field (an edit form whose first field is read-only has no autoFocus)', async () => {
    const host = createTestHost();
    show(
      host,
      <CrudFormDialog title="Edit a note" width={480} formId="note-form" onClose={() => undefined} onSubmit={() => undefined} saving={false} labels={labels}>
        <input aria-label="Code" disabled />
        <input aria-label="Title" />
      </CrudFormDialog>,
    );
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Title')));
  });
});

describe('CrudFormDialog options', () => {
  it('cancels on Escape, leaves the checks to the form (noValidate), puts its own buttons between Cancel and Save, and sends nothing while Save is disabled', async () => {
    const host = createTestHost();
    let submitted = 0;
    let closed = 0;
    let tested = 0;
    const dialog = (saveDisabled: boolean) => (
      <CrudFormDialog
        title="Add a connection"
        width={640}
        formId="conn-form"
        formTestId="conn-form"
        noValidate
        onClose={() => closed++}
        onSubmit={() => submitted++}
        saving={false}
        saveDisabled={saveDisabled}
        saveTestId="conn-save"
        labels={{ cancel: 'Cancel', save: 'Create' }}
        actions={<button type="button" onClick={() => tested++}>Test</button>}
      >
        <input aria-label="Name" required />
      </CrudFormDialog>
    );
    const view = show(host, dialog(false));
    const form = screen.getByTestId('conn-form') as HTMLFormElement;
    expect(form.noValidate).toBe(true);
    expect(form.id).toBe('conn-form');
    const footer = within(screen.getByRole('dialog')).getAllByRole('button').map((b) => b.textContent);
    expect(footer.slice(-3)).toEqual(['Cancel', 'Test', 'Create']);
    fireEvent.click(screen.getByRole('button', { name: 'Test' }));
    expect([tested, submitted]).toEqual([1, 0]);
    fireEvent.submit(form);
    expect(submitted).toBe(1);

    view.rerender(withHost(host, dialog(true)));
    expect((screen.getByTestId('conn-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(form);
    expect(submitted).toBe(1);

    fireEvent.keyDown(screen.getByLabelText('Name'), { key: 'Escape' });
    await waitFor(() => expect(closed).toBe(1));
  });

  it('shows nothing while isOpen is false; CrudForm is the same form and footer inside a dialog of the caller', () => {
    const host = createTestHost();
    let submitted = 0;
    show(
      host,
      <>
        <CrudFormDialog isOpen={false} title="Hidden" width={480} formId="hidden-form" onClose={() => undefined} onSubmit={() => undefined} saving={false} labels={labels}>
          <input aria-label="Hidden field" />
        </CrudFormDialog>
        <Dialog isOpen title="Scheme">
          <CrudForm formId="scheme-form" onClose={() => undefined} onSubmit={() => submitted++} saving saveTestId="scheme-save" labels={labels}>
            <input aria-label="Scheme name" />
          </CrudForm>
        </Dialog>
      </>,
    );
    expect(screen.queryByText('Hidden')).toBeNull();
    expect(screen.queryByLabelText('Hidden field')).toBeNull();
    expect(screen.getByTestId('scheme-save').getAttribute('form')).toBe('scheme-form');
    fireEvent.submit(screen.getByLabelText('Scheme name').closest('form')!);
    expect(submitted).toBe(1);
  });
});

describe('CrudFormDialog keyboard', () => {
  it('gives the focus the busy Save dropped back to it when the save fails, so Escape still closes the dialog', async () => {
    const host = createTestHost();
    let fail: (() => void) | undefined;
    let closed = 0;
    function Editor() {
      const [saving, setSaving] = useState(false);
      const [error, setError] = useState<string>();
      const submit = () => {
        setSaving(true);
        void new Promise<void>((_, reject) => (fail = () => reject(new Error('taken')))).catch(() => {
          setSaving(false);
          setError('The name is taken');
        });
      };
      return (
        <CrudFormDialog title="Add a note" width={480} formId="note-form" onClose={() => closed++} onSubmit={submit} saving={saving} formError={error} saveTestId="note-save" labels={labels}>
          <input aria-label="Title" />
        </CrudFormDialog>
      );
    }
    show(host, <Editor />);
    // Blueprint brings the focus into the dialog once it has opened (in an animation frame).
    await waitFor(() => expect(document.activeElement).not.toBe(document.body));
    const save = screen.getByTestId('note-save') as HTMLButtonElement;
    await pressBusy(save);
    fail!();
    await screen.findByText('The name is taken');
    await waitFor(() => expect(document.activeElement).toBe(save));
    // Blueprint's dialog hears Escape only from inside it.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(closed).toBe(1));
  });
});

describe('CrudFormDialog rendered only while open', () => {
  afterEach(() => cleanup());

  it('gives the focus back to the button that opened it when it is saved, cancelled or closed with Escape', async () => {
    const host = createTestHost();
    let saved = 0;
    function Notes() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            New note
          </button>
          <button type="button">Elsewhere</button>
          {open && (
            <CrudFormDialog title="Add a note" width={480} formId="note-form" onClose={() => setOpen(false)} onSubmit={() => (saved++, setOpen(false))} saving={false} saveTestId="note-save" labels={labels}>
              <input aria-label="Title" autoFocus />
            </CrudFormDialog>
          )}
        </>
      );
    }
    show(host, <Notes />);
    const opener = screen.getByRole('button', { name: 'New note' });
    const open = async () => {
      // A browser focuses a clicked button (jsdom does not: done here).
      opener.focus();
      fireEvent.click(opener);
      await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Title')));
    };
    await open();
    fireEvent.click(screen.getByTestId('note-save'));
    await waitFor(() => expect(saved).toBe(1));
    expect(screen.queryByLabelText('Title')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByLabelText('Title')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    await open();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByLabelText('Title')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    expect(saved).toBe(1);
    // The focus already somewhere else when the dialog goes: it stays there.
    await open();
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    elsewhere.focus();
    await new Promise((r) => setTimeout(r, 20));
    expect(document.activeElement).toBe(elsewhere);
  });
});

describe('the form-level error', () => {
  it('shows formError once, in a danger callout with the error icon above the fields, and nothing without one', () => {
    const host = createTestHost();
    const dialog = (formError?: string) => (
      <CrudFormDialog title="Add a note" width={480} formId="note-form" formTestId="note-form" onClose={() => undefined} onSubmit={() => undefined} saving={false} labels={labels} formError={formError}>
        <input aria-label="Title" />
      </CrudFormDialog>
    );
    const view = show(host, dialog('The server is busy'));
    const callouts = screen.getAllByTestId('form-error');
    expect(callouts).toHaveLength(1);
    const callout = callouts[0]!;
    expect(callout.textContent).toBe('The server is busy');
    expect(callout.classList.contains('bp6-intent-danger')).toBe(true);
    expect(callout.querySelector('[data-icon="error"]')).not.toBeNull();
    const form = screen.getByTestId('note-form');
    expect(form.firstElementChild).toBe(callout);
    expect(callout.compareDocumentPosition(screen.getByLabelText('Title')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    view.rerender(withHost(host, dialog(undefined)));
    expect(screen.queryByTestId('form-error')).toBeNull();
    view.rerender(withHost(host, dialog('')));
    expect(screen.queryByTestId('form-error')).toBeNull();
  });

  it('CrudForm shows it the same way, and FormErrorCallout alone where the form is no CrudForm', () => {
    const host = createTestHost();
    show(
      host,
      <>
        <Dialog isOpen title="Scheme">
          <CrudForm formId="scheme-form" formTestId="scheme-form" onClose={() => undefined} onSubmit={() => undefined} saving={false} labels={labels} formError="Name taken">
            <input aria-label="Scheme name" />
          </CrudForm>
        </Dialog>
        <div data-testid="editor">
          <FormErrorCallout message="Could not save" />
          <FormErrorCallout message={undefined} />
        </div>
      </>,
    );
    expect(within(screen.getByTestId('scheme-form')).getByTestId('form-error').textContent).toBe('Name taken');
    const alone = within(screen.getByTestId('editor')).getAllByTestId('form-error');
    expect(alone.map((c) => c.textContent)).toEqual(['Could not save']);
    expect(alone[0]!.classList.contains('bp6-intent-danger')).toBe(true);
    expect(alone[0]!.querySelector('[data-icon="error"]')).not.toBeNull();
  });
});

describe('invalidField', () => {
  it('marks only the named fields', () => {
    expect(invalidField(['name'], 'name', 'Check this field')).toEqual({ intent: 'danger', helperText: 'Check this field' });
    expect(invalidField(['name'], 'code', 'Check this field')).toEqual({});
  });
});
