import { useRef, useState, type ReactNode } from 'react';
import { Button, Callout, DialogBody, DialogFooter } from '@blueprintjs/core';
import { DIALOG_WIDTH } from '@decisio/domain';
import { Dialog, useFocusBackWhenDone, useNotify } from '@decisio/sdk-plugin';
import { DIALOG_PORTAL, describeFailure } from './errors';

/**
 * A change the owner makes in a settings dialog: a toast when it is saved, else the failure's
 * message (or `failed`) as the dialog's error. `change` resolves with whether it was saved.
 */
export function useOwnerChange(failed: string) {
  const notify = useNotify();
  const [error, setError] = useState<string | null>(null);
  const change = async (call: () => Promise<unknown>, done: string): Promise<boolean> => {
    try {
      await call();
      notify({ message: done, intent: 'success', icon: 'tick-circle' });
      return true;
    } catch (err) {
      setError(describeFailure(err, failed).message ?? failed);
      return false;
    }
  };
  return { error, setError, change };
}

/**
 * The frame of a project's settings that only its owner changes (collaboration, sharing):
 * someone else sees why they cannot change anything and only a Close button; the owner gets
 * Save, and `undo` (remove every grant, turn sharing off) when there is something to undo.
 * Someone else finds the focus on Close; the owner's first control takes it (`autoFocus` in the
 * children), else Blueprint leaves it on the dialog's empty focus trap.
 * Test ids: `<testId>-no-right`, `<testId>-error`, `<testId>-submit`.
 */
export function OwnerDialog(props: {
  title: string;
  isOwner: boolean;
  /** Why someone who is not the owner cannot change anything. */
  noRight: string;
  testId: string;
  error: string | null;
  undo?: { text: string; loading?: boolean; onClick(): void } | null;
  closeText: string;
  saveText: string;
  saving: boolean;
  onSave(): void;
  onClose(): void;
  children: ReactNode;
}) {
  const { isOwner, testId, undo } = props;
  // A busy Save or undo drops the focus to the page, and the dialog stays open: it comes back to
  // Save (the undo button may be gone once there is nothing left to undo).
  const saveRef = useRef<HTMLButtonElement>(null);
  useFocusBackWhenDone(props.saving || !!undo?.loading, () => saveRef.current);
  return (
    <Dialog isOpen portalClassName={DIALOG_PORTAL} onClose={props.onClose} title={props.title} style={{ width: DIALOG_WIDTH.md }}>
      <DialogBody>
        {!isOwner && (
          <Callout intent="warning" icon="lock" className="dc-gap" data-testid={`${testId}-no-right`}>
            {props.noRight}
          </Callout>
        )}
        {props.children}
        {props.error && (
          <Callout intent="danger" icon="error" className="dc-gap-top" data-testid={`${testId}-error`}>
            {props.error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {isOwner && undo && (
              // eslint-disable-next-line no-restricted-syntax -- not a BusyButton: the hook useFocusBackWhenDone above gives the focus to Save when done (after Save or Undo)
              <Button intent="danger" variant="minimal" loading={undo.loading} onClick={undo.onClick}>
                {undo.text}
              </Button>
            )}
            {/* Someone who is not the owner can only close: the focus starts there (not on Blueprint's empty focus trap). */}
            <Button autoFocus={!isOwner} onClick={props.onClose}>
              {props.closeText}
            </Button>
            {isOwner && (
              // eslint-disable-next-line no-restricted-syntax -- not a BusyButton: the hook useFocusBackWhenDone above gives the focus to Save when done (after Save or Undo)
              <Button ref={saveRef} intent="primary" loading={props.saving} onClick={props.onSave} data-testid={`${testId}-submit`}>
                {props.saveText}
              </Button>
            )}
          </>
        }
      />
    </Dialog>
  );
}
