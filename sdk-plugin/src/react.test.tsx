import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRef, startTransition, Suspense, use, useRef, useState, type ComponentType, type Ref } from 'react';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { Button, Classes, Dialog, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { Alert as FocusAlert, BusyButton, Dialog as FocusBackDialog, useFocusBackOnUnmount, useFocusBackWhenDone, useOpeningKey, type FocusBackFallback } from './react';
import { createTestHost, heldBack, pressBusy, withHost } from './testing';

/**
 * A dialog's Save turns busy, with the focus dropped to the page, and is done: saved, the dialog
 * closes and fades out with the button still there, and the focus is left on the page for
 * Blueprint to give back to the opener; failed, it stays open, and the focus comes back to Save.
 */
async function checkSaveInDialog(Editor: ComponentType<{ saving: boolean; isOpen: boolean }>) {
  const view = render(<Editor saving={false} isOpen />);
  // Blueprint brings the focus into the dialog once it has opened (in an animation frame).
  await waitFor(() => expect(document.activeElement).not.toBe(document.body));
  const save = screen.getByRole('button', { name: 'Save' });
  view.rerender(<Editor saving isOpen />);
  (document.activeElement as HTMLElement | null)?.blur();
  // saved: the dialog closes, and fades out with the button still there
  view.rerender(<Editor saving={false} isOpen={false} />);
  expect(save.isConnected).toBe(true);
  expect(document.activeElement).toBe(document.body);
  // failed: it stays open, and the focus comes back
  view.rerender(<Editor saving={false} isOpen />);
  const again = await screen.findByRole('button', { name: 'Save' });
  view.rerender(<Editor saving isOpen />);
  (document.activeElement as HTMLElement | null)?.blur();
  view.rerender(<Editor saving={false} isOpen />);
  expect(document.activeElement).toBe(again);
}

/** The first step of two: its Done gives way to the next step's dialog. */
function FirstStep(props: { onDone(): void }) {
  useFocusBackOnUnmount();
  return (
    <Dialog isOpen title="First">
      <button type="button" onClick={props.onDone}>
        Done
      </button>
    </Dialog>
  );
}

describe('useOpeningKey', () => {
  afterEach(() => cleanup());

  it('changes when a record opens (another one, or the same one again) and stays while it closes', () => {
    const { result, rerender } = renderHook(({ id }: { id: string | null }) => useOpeningKey(id), { initialProps: { id: null as string | null } });
    const closed = result.current;
    rerender({ id: 'a' });
    const a = result.current;
    expect(a).not.toBe(closed);
    rerender({ id: 'a' });
    expect(result.current).toBe(a);
    // Closing keeps the key: the same dialog fades out.
    rerender({ id: null });
    expect(result.current).toBe(a);
    // The same record again: a fresh dialog.
    rerender({ id: 'a' });
    const again = result.current;
    expect(again).not.toBe(a);
    // Another record straight away: a fresh dialog too.
    rerender({ id: 'b' });
    expect(result.current).not.toBe(again);
  });
});

describe('useFocusBackWhenDone', () => {
  afterEach(() => cleanup());

  it('gives the focus back to what was busy when it is done, only if the focus fell to the page', () => {
    const a = document.body.appendChild(document.createElement('button'));
    const b = document.body.appendChild(document.createElement('button'));
    const other = document.body.appendChild(document.createElement('input'));
    const targets: Record<string, HTMLElement> = { a, b };
    const { rerender } = renderHook(({ busy }: { busy: string | null }) => useFocusBackWhenDone(busy, (was) => targets[was]), { initialProps: { busy: null as string | null } });
    rerender({ busy: 'b' });
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    rerender({ busy: null });
    expect(document.activeElement).toBe(b);
    // the user moved on while it was busy: the focus stays where they put it
    rerender({ busy: 'a' });
    other.focus();
    rerender({ busy: null });
    expect(document.activeElement).toBe(other);
    for (const el of [a, b, other]) el.remove();
  });

  it('leaves the focus alone when the target is in a dialog that is closing (Blueprint gives it back to the opener)', async () => {
    function Editor(props: { saving: boolean; isOpen: boolean }) {
      const save = useRef<HTMLButtonElement>(null);
      useFocusBackWhenDone(props.saving, () => save.current);
      return (
        <Dialog isOpen={props.isOpen} title="Note">
          <button ref={save} type="button">
            Save
          </button>
        </Dialog>
      );
    }
    await checkSaveInDialog(Editor);
  });
});

describe('BusyButton', () => {
  afterEach(() => cleanup());

  /** Save, whose call waits for `gate`; Next is a field to move the focus to meanwhile. */
  function SaveForm(props: { gate: { wait: Promise<void> }; buttonRef?: Ref<HTMLButtonElement> }) {
    const [saving, setSaving] = useState(false);
    const save = async () => {
      setSaving(true);
      await props.gate.wait;
      setSaving(false);
    };
    return (
      <>
        <input aria-label="Next" />
        <BusyButton ref={props.buttonRef} intent="primary" loading={saving} onClick={() => void save()} text="Save" />
      </>
    );
  }

  it('takes back the focus it dropped to the page while busy, and passes its ref on', async () => {
    const gate = heldBack();
    const ref = createRef<HTMLButtonElement>();
    render(<SaveForm gate={gate} buttonRef={ref} />);
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save' });
    expect(ref.current).toBe(save);
    await pressBusy(save);
    await act(async () => gate.release());
    await waitFor(() => expect(save.disabled).toBe(false));
    expect(document.activeElement).toBe(save);
  });

  it('leaves the focus where the user put it while it was busy', async () => {
    const gate = heldBack();
    render(<SaveForm gate={gate} />);
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save' });
    await pressBusy(save);
    const next = screen.getByLabelText('Next');
    next.focus();
    await act(async () => gate.release());
    await waitFor(() => expect(save.disabled).toBe(false));
    expect(document.activeElement).toBe(next);
  });

  it('does not take the focus after a refresh nobody asked for (a list that polls) while the focus was on the page', async () => {
    function Refresh(props: { fetching: boolean }) {
      return <BusyButton loading={props.fetching} text="Refresh" />;
    }
    const view = render(<Refresh fetching={false} />);
    expect(document.activeElement).toBe(document.body);
    view.rerender(<Refresh fetching />);
    view.rerender(<Refresh fetching={false} />);
    await act(async () => undefined);
    expect(document.activeElement).toBe(document.body);
    // pressed by the user: it has the focus again once done
    const refresh = screen.getByRole<HTMLButtonElement>('button', { name: 'Refresh' });
    refresh.focus();
    view.rerender(<Refresh fetching />);
    refresh.blur();
    view.rerender(<Refresh fetching={false} />);
    expect(document.activeElement).toBe(refresh);
  });

  it('leaves the focus alone in a dialog that is closing (Blueprint gives it back to the opener), and takes it back in one that stays open', async () => {
    function Editor(props: { saving: boolean; isOpen: boolean }) {
      return (
        <Dialog isOpen={props.isOpen} title="Note">
          <BusyButton loading={props.saving} text="Save" />
        </Dialog>
      );
    }
    await checkSaveInDialog(Editor);
  });

  it('notes where the focus was at the commit that turns it busy, not in a render React did not commit (a transition that suspended)', async () => {
    const gate = heldBack();
    let loaded = false;
    function Data(props: { saving: boolean }) {
      if (props.saving && !loaded) use(gate.wait);
      return null;
    }
    function Page(props: { saving: boolean }) {
      return (
        <Suspense fallback={null}>
          <BusyButton loading={props.saving} text="Save" />
          <Data saving={props.saving} />
        </Suspense>
      );
    }
    const view = render(<Page saving={false} />);
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save' });
    // A transition renders Save busy while the focus is on the page, and suspends: nothing is committed.
    await act(async () => startTransition(() => view.rerender(<Page saving />)));
    expect(save.disabled).toBe(false);
    // Meanwhile the user is at Save; the transition then commits, and the busy Save drops the focus.
    save.focus();
    await act(async () => {
      loaded = true;
      gate.release();
    });
    await waitFor(() => expect(save.disabled).toBe(true));
    save.blur();
    view.rerender(<Page saving={false} />);
    expect(document.activeElement).toBe(save);
  });
});

describe('useFocusBackOnUnmount', () => {
  afterEach(() => cleanup());

  it('leaves the focus to Blueprint when the dialog gives way to another one (a save that opens the next step)', async () => {
    function Steps() {
      const [step, setStep] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setStep(1)}>
            Start
          </button>
          {step === 1 && <FirstStep onDone={() => setStep(2)} />}
          <Dialog isOpen={step === 2} title="Second">
            <input aria-label="Next" />
          </Dialog>
        </>
      );
    }
    render(<Steps />);
    const opener = screen.getByRole('button', { name: 'Start' });
    opener.focus();
    // Blueprint's open dialog stops a focus event outside it before the opener hears it: watch the call.
    const focus = vi.spyOn(opener, 'focus');
    fireEvent.click(opener);
    const done = await screen.findByRole('button', { name: 'Done' });
    await waitFor(() => expect(document.activeElement).not.toBe(opener));
    fireEvent.click(done);
    await screen.findByRole('dialog', { name: 'Second' });
    await new Promise((r) => setTimeout(r, 50));
    expect(focus).not.toHaveBeenCalled();
    expect(document.activeElement).not.toBe(opener);
  });
});

describe('useFocusBackOnUnmount, with a fallback', () => {
  afterEach(() => cleanup());

  it('gives the focus to the fallback when the opener was removed while the dialog was open', async () => {
    function Edit(props: { onClose(): void; fallback: FocusBackFallback }) {
      useFocusBackOnUnmount(props.fallback);
      return (
        <Dialog isOpen title="Edit" onClose={props.onClose}>
          <input aria-label="Name" autoFocus />
        </Dialog>
      );
    }
    function Page(props: { showOpener: boolean }) {
      const [editing, setEditing] = useState(false);
      const list = useRef<HTMLUListElement>(null);
      return (
        <>
          <ul ref={list} tabIndex={-1} aria-label="Items">
            {props.showOpener && (
              <li>
                <button type="button" onClick={() => setEditing(true)}>
                  Edit
                </button>
              </li>
            )}
          </ul>
          {editing && <Edit onClose={() => setEditing(false)} fallback={() => list.current} />}
        </>
      );
    }
    const view = render(<Page showOpener />);
    const opener = screen.getByRole('button', { name: 'Edit' });
    // A browser focuses a clicked button (jsdom does not: done here).
    opener.focus();
    fireEvent.click(opener);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    view.rerender(<Page showOpener={false} />);
    expect(opener.isConnected).toBe(false);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByLabelText('Name')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('list', { name: 'Items' })));
  });
});

describe('useFocusBackOnUnmount, a dialog taking over from another', () => {
  afterEach(() => cleanup());

  it("gives the focus back to the first dialog's opener when the one that took over closes (its own opener went with the first)", async () => {
    function Second(props: { onClose(): void }) {
      useFocusBackOnUnmount();
      return (
        <Dialog isOpen title="Second" onClose={props.onClose}>
          <input aria-label="Next" autoFocus />
        </Dialog>
      );
    }
    function Steps() {
      const [step, setStep] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setStep(1)}>
            Start
          </button>
          {step === 1 && <FirstStep onDone={() => setStep(2)} />}
          {step === 2 && <Second onClose={() => setStep(0)} />}
        </>
      );
    }
    render(<Steps />);
    const opener = screen.getByRole('button', { name: 'Start' });
    // A browser focuses a clicked button (jsdom does not: done here).
    opener.focus();
    fireEvent.click(opener);
    const done = await screen.findByRole('button', { name: 'Done' });
    done.focus();
    // The second step replaces the first in one render: it first renders while Done, soon gone, has the focus.
    fireEvent.click(done);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Next')));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByLabelText('Next')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
});

describe('useFocusBackOnUnmount, a dialog opened from a popover menu', () => {
  afterEach(() => cleanup());

  it.each([
    ['a focused menu item', true],
    ["the menu's focus trap (a browser that does not focus a clicked item)", false],
  ])("gives the focus back to the popover's target (the menu's More button) once the menu that opened the dialog is gone, from %s", async (_, focusItem) => {
    function Edit(props: { onClose(): void }) {
      useFocusBackOnUnmount();
      return (
        <Dialog isOpen title="Edit" onClose={props.onClose}>
          <input aria-label="Name" autoFocus />
        </Dialog>
      );
    }
    function Row() {
      const [editing, setEditing] = useState(false);
      return (
        <>
          <button type="button">Before</button>
          <PopoverNext
            content={
              <Menu>
                <MenuItem text="Edit" onClick={() => setEditing(true)} />
              </Menu>
            }
          >
            <Button aria-label="More" icon="more" />
          </PopoverNext>
          {editing && <Edit onClose={() => setEditing(false)} />}
        </>
      );
    }
    render(<Row />);
    const more = screen.getByRole('button', { name: 'More' });
    // A browser focuses a clicked button (jsdom does not: done here), and most a clicked menu item.
    more.focus();
    fireEvent.click(more);
    const item = await screen.findByRole('menuitem', { name: 'Edit' });
    if (focusItem) item.focus();
    // Else Blueprint has brought the focus into the menu (its focus trap) in an animation frame.
    else await waitFor(() => expect(item.closest(`.${Classes.OVERLAY}`)!.contains(document.activeElement)).toBe(true));
    fireEvent.click(item);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    const overlay = screen.getByLabelText('Name').closest(`.${Classes.OVERLAY}`)!;
    // The menu has closed and faded out: the item that opened the dialog is gone (the menu gave
    // the focus to More as it went, and the dialog took it back).
    await waitFor(() => {
      expect(item.isConnected).toBe(false);
      expect(overlay.contains(document.activeElement)).toBe(true);
    });
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByLabelText('Name')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(more));
  });
});

describe('Dialog (sdk-plugin)', () => {
  afterEach(() => cleanup());

  it('gives the focus back to its opener when, rendered only while open, it is removed', async () => {
    function Notes() {
      const [editing, setEditing] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          {editing && (
            <FocusBackDialog isOpen title="Edit" onClose={() => setEditing(false)}>
              <input aria-label="Name" autoFocus />
            </FocusBackDialog>
          )}
        </>
      );
    }
    render(<Notes />);
    const opener = screen.getByRole('button', { name: 'Edit' });
    // A browser focuses a clicked button (jsdom does not: done here).
    opener.focus();
    fireEvent.click(opener);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByLabelText('Name')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('leaves the focus to Blueprint when it was mounted closed (always there, toggling isOpen)', async () => {
    function Page(props: { shown: boolean; open: boolean }) {
      return (
        <>
          <button type="button">Before</button>
          {props.shown && (
            <FocusBackDialog isOpen={props.open} title="Settings">
              <input aria-label="Theme" />
            </FocusBackDialog>
          )}
        </>
      );
    }
    const view = render(<Page shown={false} open={false} />);
    const before = screen.getByRole('button', { name: 'Before' });
    // What has the focus when the closed dialog mounts is not what opens it.
    before.focus();
    view.rerender(<Page shown open={false} />);
    before.blur();
    view.rerender(<Page shown open />);
    await waitFor(() => expect(screen.getByLabelText('Theme').closest(`.${Classes.OVERLAY}`)!.contains(document.activeElement)).toBe(true));
    const focus = vi.spyOn(before, 'focus');
    // Removed while open (the page went away with it): nothing of this dialog's moves the focus to Before.
    view.rerender(<Page shown={false} open />);
    await new Promise((r) => setTimeout(r, 50));
    expect(focus).not.toHaveBeenCalled();
  });

  it('registers once: useFocusBackOnUnmount in its content (a CrudForm shown after a spinner) does nothing, the dialog gives the focus back', async () => {
    function Form() {
      useFocusBackOnUnmount();
      return <input aria-label="Name" autoFocus />;
    }
    function Notes(props: { editing: boolean; loaded: boolean }) {
      return (
        <>
          <button type="button">Edit</button>
          {props.editing && (
            <FocusBackDialog isOpen title="Edit">
              {props.loaded ? <Form /> : <p>Loading…</p>}
            </FocusBackDialog>
          )}
        </>
      );
    }
    const view = render(<Notes editing={false} loaded={false} />);
    const opener = screen.getByRole('button', { name: 'Edit' });
    opener.focus();
    view.rerender(<Notes editing loaded={false} />);
    view.rerender(<Notes editing loaded />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    // Each registration gives the focus back while it is on the page: count the calls (the focus stays there).
    const focus = vi.spyOn(opener, 'focus').mockImplementation(() => undefined);
    view.rerender(<Notes editing={false} loaded />);
    await new Promise((r) => setTimeout(r, 50));
    expect(focus).toHaveBeenCalledTimes(1);
  });
});

describe('Dialog (sdk-plugin), the focus when it opens', () => {
  afterEach(() => cleanup());

  /** Renders a dialog mounted closed, opens it from a button, and waits until it has opened (`onOpened`). */
  async function open(body: (props: { isOpen: boolean; onOpened(node: HTMLElement): void }) => ReturnType<typeof FocusBackDialog>) {
    const onOpened = vi.fn();
    const Page = (props: { isOpen: boolean }) => (
      <>
        <button type="button">Open</button>
        {body({ isOpen: props.isOpen, onOpened })}
      </>
    );
    const view = render(<Page isOpen={false} />);
    screen.getByRole('button', { name: 'Open' }).focus();
    view.rerender(<Page isOpen />);
    await waitFor(() => expect(onOpened).toHaveBeenCalledTimes(1));
    return onOpened;
  }

  it("gives the focus to the body's first field, not to Blueprint's empty focus trap, and calls the caller's onOpened", async () => {
    const onOpened = await open((p) => (
      <FocusBackDialog {...p} title="Import">
        <div className={Classes.DIALOG_BODY}>
          <p>Choose a file.</p>
          <button type="button">Help</button>
          <input type="hidden" name="token" />
          <input aria-label="Disabled" disabled />
          <input aria-label="Name" />
          <textarea aria-label="Notes" />
        </div>
        <div className={Classes.DIALOG_FOOTER}>
          <button type="button">Cancel</button>
        </div>
      </FocusBackDialog>
    ));
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(onOpened.mock.calls[0]?.[0]).toBeInstanceOf(HTMLElement);
  });

  it('gives it right after Blueprint brought the focus in, not once the opening transition has ended (keys typed meanwhile are not lost)', async () => {
    const onOpening = vi.fn();
    const onOpened = vi.fn();
    const Page = (props: { isOpen: boolean }) => (
      <>
        <button type="button">Open</button>
        <FocusBackDialog isOpen={props.isOpen} title="New" transitionDuration={5000} onOpening={onOpening} onOpened={onOpened}>
          <input aria-label="Name" />
        </FocusBackDialog>
      </>
    );
    const view = render(<Page isOpen={false} />);
    screen.getByRole('button', { name: 'Open' }).focus();
    view.rerender(<Page isOpen />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    // Still opening: the caller's onOpening was called, onOpened not yet.
    expect(onOpening).toHaveBeenCalledTimes(1);
    expect(onOpened).not.toHaveBeenCalled();
  });

  it('leaves the focus the user took while the dialog was opening: a busy button that dropped it to the page gets it back, not the first field', async () => {
    const onOpened = vi.fn();
    function Page(props: { saving: boolean }) {
      return (
        <FocusBackDialog isOpen title="New" transitionDuration={200} onOpened={onOpened}>
          <input aria-label="Name" />
          <BusyButton loading={props.saving} text="Append" />
        </FocusBackDialog>
      );
    }
    const view = render(<Page saving={false} />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    // Append pressed before the opening transition has ended: disabled, it drops the focus to the page.
    const append = screen.getByRole<HTMLButtonElement>('button', { name: 'Append' });
    append.focus();
    view.rerender(<Page saving />);
    append.blur();
    await waitFor(() => expect(onOpened).toHaveBeenCalled());
    expect(document.activeElement).toBe(document.body);
    view.rerender(<Page saving={false} />);
    expect(document.activeElement).toBe(append);
  });

  it('passes over a field that is not rendered (display: none, where the browser can tell)', async () => {
    const checkVisibility = vi.fn(function (this: Element) {
      return this.getAttribute('aria-label') !== 'Collapsed';
    });
    Object.defineProperty(HTMLElement.prototype, 'checkVisibility', { value: checkVisibility, configurable: true });
    try {
      await open((p) => (
        <FocusBackDialog {...p} title="Filter">
          <input aria-label="Collapsed" />
          <input aria-label="Shown" />
        </FocusBackDialog>
      ));
      expect(document.activeElement).toBe(screen.getByLabelText('Shown'));
    } finally {
      delete (HTMLElement.prototype as { checkVisibility?: unknown }).checkVisibility;
    }
  });

  it('gives it to the first button outside the header when there is no field (Cancel before Save in the footer)', async () => {
    await open((p) => (
      <FocusBackDialog {...p} title="Details">
        <div className={Classes.DIALOG_BODY}>
          <p>Nothing to change.</p>
        </div>
        <div className={Classes.DIALOG_FOOTER}>
          <button type="button" disabled>
            Copy
          </button>
          <button type="button">Cancel</button>
          <button type="button">Save</button>
        </div>
      </FocusBackDialog>
    ));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('leaves the focus on a field with autoFocus', async () => {
    await open((p) => (
      <FocusBackDialog {...p} title="Rename">
        <input aria-label="First" />
        <input aria-label="Second" autoFocus />
      </FocusBackDialog>
    ));
    expect(document.activeElement).toBe(screen.getByLabelText('Second'));
  });

  it('leaves the focus to Blueprint with focusFirstControl={false}', async () => {
    await open((p) => (
      <FocusBackDialog {...p} title="Log" focusFirstControl={false}>
        <input aria-label="Filter" />
      </FocusBackDialog>
    ));
    expect(document.activeElement).not.toBe(screen.getByLabelText('Filter'));
    expect(document.activeElement!.classList.contains(Classes.OVERLAY_START_FOCUS_TRAP)).toBe(true);
  });

  /** A dialog whose body shows a spinner until its data is in (the tables of a data connection), then a field and a list. */
  function Tables(props: { loaded: boolean; onClose?(): void }) {
    return (
      <FocusBackDialog isOpen title="Tables" onClose={props.onClose}>
        <div className={Classes.DIALOG_BODY}>
          <div aria-label="Notes" tabIndex={-1}>
            Read only
          </div>
          {props.loaded ? (
            <>
              <input aria-label="Filter" />
              <button type="button">sales</button>
            </>
          ) : (
            <p>Loading…</p>
          )}
        </div>
      </FocusBackDialog>
    );
  }

  it("looks again once its content arrives after a spinner: the focus leaves the header's Close (where Enter closes) for the first field", async () => {
    const view = render(<Tables loaded={false} />);
    // Nothing but the header's Close to focus while it loads.
    const close = screen.getByRole('button', { name: 'Close' });
    await waitFor(() => expect(document.activeElement).toBe(close));
    view.rerender(<Tables loaded />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Filter')));
    // Once: content that changes later does not move the focus again.
    screen.getByRole('button', { name: 'sales' }).focus();
    view.rerender(<Tables loaded={false} />);
    view.rerender(<Tables loaded />);
    await act(async () => new Promise((r) => setTimeout(r, 20)));
    expect(document.activeElement).not.toBe(screen.getByLabelText('Filter'));
  });

  it('leaves the focus where the user moved it while the content was loading', async () => {
    const view = render(<Tables loaded={false} />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' })));
    // The user clicks into the body (a browser focuses the element with tabindex -1 it clicked).
    const notes = screen.getByLabelText('Notes');
    notes.focus();
    view.rerender(<Tables loaded />);
    await act(async () => new Promise((r) => setTimeout(r, 20)));
    expect(document.activeElement).toBe(notes);
  });
});

describe('Dialog (sdk-plugin), opened while another overlay closes', () => {
  afterEach(() => cleanup());

  it("takes the focus out of the fading overlay (a command palette) onto its first field, and keeps it there when that overlay gives its focus back", async () => {
    // The palette, itself an SDK Dialog, closes as its entry opens the form (in one render). The
    // form has opened (its onOpened pass done) before the palette has faded.
    function Page(props: { open: 'palette' | 'form' | null }) {
      return (
        <>
          <button type="button">Open</button>
          <FocusBackDialog isOpen={props.open === 'palette'} title="Palette">
            <input aria-label="Search" />
          </FocusBackDialog>
          <FocusBackDialog isOpen={props.open === 'form'} title="Form" transitionDuration={100}>
            <input aria-label="Name" />
          </FocusBackDialog>
        </>
      );
    }
    const view = render(<Page open={null} />);
    screen.getByRole('button', { name: 'Open' }).focus();
    view.rerender(<Page open="palette" />);
    const search = await screen.findByLabelText('Search');
    await waitFor(() => expect(document.activeElement).toBe(search));
    view.rerender(<Page open="form" />);
    const name = await screen.findByLabelText('Name');
    // At once, while the palette fades (300 ms): not once it has gone, the keys typed meanwhile lost.
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(search.isConnected).toBe(true);
    // Faded, Blueprint gives the palette's focus back to Open, behind the form: the form's focus
    // enforcement took it from there onto its empty trap. It stays on Name.
    await waitFor(() => expect(search.isConnected).toBe(false));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(document.activeElement).toBe(name);
  });
});

describe('Dialog (sdk-plugin), its Close button', () => {
  afterEach(() => cleanup());

  it("names the header's Close button in the interface language (Blueprint writes \"Close\" whatever it is)", async () => {
    for (const [locale, name] of [['zh-CN', '关闭'], ['en-US', 'Close']] as const) {
      const host = createTestHost({ locale });
      const view = render(withHost(host, <FocusBackDialog isOpen title="Note" />));
      await waitFor(() => expect(screen.getByRole('button', { name })).toBeTruthy());
      view.unmount();
    }
    // without the workbench's services (no language known) it stays Blueprint's
    render(<FocusBackDialog isOpen title="Note" />);
    expect(await screen.findByRole('button', { name: 'Close' })).toBeTruthy();
  });
});

describe('Alert (sdk-plugin)', () => {
  afterEach(() => cleanup());

  function Confirm(props: { isOpen: boolean; loading?: boolean; cancel?: boolean; onOpened?(node: HTMLElement): void }) {
    return (
      <FocusAlert
        isOpen={props.isOpen}
        loading={props.loading}
        intent="danger"
        confirmButtonText="Delete"
        cancelButtonText={props.cancel === false ? undefined : 'Cancel'}
        onConfirm={() => undefined}
        onCancel={props.cancel === false ? undefined : () => undefined}
        onOpened={props.onOpened}
      >
        Delete it?
      </FocusAlert>
    );
  }

  it('is named by its message, or by the heading it names, which the message then describes', async () => {
    render(<Confirm isOpen />);
    const alert = await screen.findByRole('alertdialog', { name: 'Delete it?' });
    expect(alert.getAttribute('aria-describedby')).toBeNull();
    cleanup();
    render(
      <FocusAlert isOpen confirmButtonText="Delete" cancelButtonText="Cancel" onCancel={() => undefined} aria-labelledby="alert-heading">
        <h5 id="alert-heading">Delete the project</h5>
        <p>Pricing and its solutions go for good.</p>
      </FocusAlert>,
    );
    const named = await screen.findByRole('alertdialog', { name: 'Delete the project' });
    expect(document.getElementById(named.getAttribute('aria-describedby')!)?.textContent).toBe('Delete the projectPricing and its solutions go for good.');
  });

  it("opens with the focus on Cancel, and calls the caller's onOpened", async () => {
    const onOpened = vi.fn();
    const view = render(<Confirm isOpen={false} onOpened={onOpened} />);
    view.rerender(<Confirm isOpen onOpened={onOpened} />);
    await waitFor(() => expect(onOpened).toHaveBeenCalled());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('gives Cancel the focus right after Blueprint brought it in, not once the opening transition has ended', async () => {
    const onOpened = vi.fn();
    const confirm = (isOpen: boolean) => (
      <FocusAlert isOpen={isOpen} transitionDuration={5000} confirmButtonText="Delete" cancelButtonText="Cancel" onCancel={() => undefined} onOpened={onOpened}>
        Delete it?
      </FocusAlert>
    );
    const view = render(confirm(false));
    view.rerender(confirm(true));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
    expect(onOpened).not.toHaveBeenCalled();
  });

  it('opens with the focus on the confirm button when it has no Cancel', async () => {
    const view = render(<Confirm isOpen={false} cancel={false} />);
    view.rerender(<Confirm isOpen cancel={false} />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete' })));
  });

  it('takes the focus back to the confirm button when loading ends and it stays open, not when it closes', async () => {
    const view = render(<Confirm isOpen={false} />);
    view.rerender(<Confirm isOpen />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
    const confirm = screen.getByRole('button', { name: 'Delete' });
    view.rerender(<Confirm isOpen loading />);
    // The busy button is disabled: a browser drops the focus to the page (jsdom does not: done here).
    (document.activeElement as HTMLElement).blur();
    view.rerender(<Confirm isOpen />);
    expect(document.activeElement).toBe(confirm);
    // Done and closing (it worked): Blueprint gives the focus back to the opener once it has faded.
    view.rerender(<Confirm isOpen loading />);
    (document.activeElement as HTMLElement).blur();
    view.rerender(<Confirm isOpen={false} />);
    expect(confirm.isConnected).toBe(true);
    expect(document.activeElement).toBe(document.body);
  });

  it('cancels on Escape by default, not while loading, nor when the caller turns it off', async () => {
    const onCancel = vi.fn();
    const alert = (extra: { loading?: boolean; canEscapeKeyCancel?: boolean }) => (
      <FocusAlert isOpen confirmButtonText="Delete" cancelButtonText="Cancel" onConfirm={() => undefined} onCancel={onCancel} {...extra}>
        Delete it?
      </FocusAlert>
    );
    const view = render(alert({ loading: true }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete it?' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onCancel).not.toHaveBeenCalled();
    view.rerender(alert({ canEscapeKeyCancel: false }));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onCancel).not.toHaveBeenCalled();
    view.rerender(alert({}));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('gives the focus back to its opener when, rendered only while open, it is removed', async () => {
    function Row() {
      const [asking, setAsking] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setAsking(true)}>
            Remove
          </button>
          {asking && (
            <FocusAlert isOpen confirmButtonText="Delete" cancelButtonText="Cancel" onConfirm={() => setAsking(false)} onCancel={() => setAsking(false)}>
              Delete it?
            </FocusAlert>
          )}
        </>
      );
    }
    render(<Row />);
    const opener = screen.getByRole('button', { name: 'Remove' });
    // A browser focuses a clicked button (jsdom does not: done here).
    opener.focus();
    fireEvent.click(opener);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
});

describe('Alert (sdk-plugin), focusBackFallback', () => {
  afterEach(() => cleanup());

  /**
   * Rows with a Remove button each, and Remove all: a confirmed delete removes the opener, or
   * (nothing left) disables it; a row in `gone` is removed from elsewhere (another tab's delete).
   */
  function Rows(props: { mountedOpen: boolean; fallback: FocusBackFallback; gone?: string[] }) {
    const [all, setRows] = useState(['a', 'b', 'c']);
    const rows = all.filter((r) => !props.gone?.includes(r));
    const [deleting, setDeleting] = useState<string | 'all' | null>(null);
    const alert = (isOpen: boolean) => (
      <FocusAlert
        isOpen={isOpen}
        confirmButtonText="Delete"
        cancelButtonText="Cancel"
        onConfirm={() => {
          setRows(deleting === 'all' ? [] : rows.filter((r) => r !== deleting));
          setDeleting(null);
        }}
        onCancel={() => setDeleting(null)}
        focusBackFallback={props.fallback}
      >
        Delete it?
      </FocusAlert>
    );
    return (
      <>
        <button type="button" disabled={rows.length === 0} onClick={() => setDeleting('all')}>
          Remove all
        </button>
        {rows.length === 0 && <div tabIndex={-1} data-testid="empty" />}
        <ul>
          {rows.map((r) => (
            <li key={r} tabIndex={-1} data-row={r}>
              <button type="button" onClick={() => setDeleting(r)}>
                Remove {r}
              </button>
            </li>
          ))}
        </ul>
        {props.mountedOpen ? deleting !== null && alert(true) : alert(deleting !== null)}
      </>
    );
  }

  it.each([
    ['mounted closed (toggling isOpen), once it has faded', false],
    ['rendered only while open, as it is removed', true],
  ])('gives the focus to the fallback when the opener is gone or disabled, %s', async (_, mountedOpen) => {
    const fallback = vi.fn(() => document.querySelector<HTMLElement>('[data-row="c"]') ?? screen.queryByTestId('empty'));
    const view = render(<Rows mountedOpen={mountedOpen} fallback={fallback} />);
    const ask = async (opener: HTMLElement, answer: 'Cancel' | 'Delete', whileOpen?: () => void) => {
      // A browser focuses a clicked button (jsdom does not: done here).
      opener.focus();
      fireEvent.click(opener);
      await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
      whileOpen?.();
      fireEvent.click(screen.getByRole('button', { name: answer }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    };
    // Cancelled: the opener is still there and gets the focus back; the fallback is not asked.
    const removeB = screen.getByRole('button', { name: 'Remove b' });
    await ask(removeB, 'Cancel');
    await waitFor(() => expect(document.activeElement).toBe(removeB));
    expect(fallback).not.toHaveBeenCalled();
    // Removed from elsewhere while the alert is open, then cancelled: the fallback takes the focus.
    const removeA = screen.getByRole('button', { name: 'Remove a' });
    await ask(removeA, 'Cancel', () => view.rerender(<Rows mountedOpen={mountedOpen} fallback={fallback} gone={['a']} />));
    expect(removeA.isConnected).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(document.querySelector('[data-row="c"]')));
    // Deleted: the row whose button opened it is gone; the next row takes the focus.
    await ask(removeB, 'Delete');
    expect(removeB.isConnected).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(document.querySelector('[data-row="c"]')));
    // Everything deleted: Remove all, the opener, is disabled; the empty state takes the focus.
    await ask(screen.getByRole('button', { name: 'Remove all' }), 'Delete');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('empty')));
  });
});
