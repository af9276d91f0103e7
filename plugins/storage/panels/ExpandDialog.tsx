import { useState } from 'react';
import { Button, DialogBody, DialogFooter, FormGroup } from '@blueprintjs/core';
import { DIALOG_WIDTH, LIMITS } from '@decisio/domain';
import { NumericInput, Dialog, BusyButton, isApiError, useNotify } from '@decisio/sdk-plugin';
import { storageApi } from '../api';
import { useStorageT } from '../i18n';

const GB = 1024 ** 3;

/** The rule of storage expansion (spec platform §5): more than 0 GB, the total at most 500 GB. */
export function expansionError(size: number, totalBytes: number): 'positive' | 'cap' | null {
  if (!Number.isFinite(size) || size <= 0) return 'positive';
  if (totalBytes + size * GB > LIMITS.storageCapBytes) return 'cap';
  return null;
}

/** "Expand storage": adds GB to the user's total (`file/addStorageSpace`). */
export function ExpandDialog(props: { isOpen: boolean; totalBytes: number; onClose(): void }) {
  const { t } = useStorageT();
  const notify = useNotify();
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const [add, state] = storageApi.endpoints['storage/addSpace'].useMutation();
  const size = Number(value);
  const error = expansionError(value.trim() === '' ? NaN : size, props.totalBytes);

  const submit = async () => {
    setTouched(true);
    if (error) return;
    try {
      await add({ size }).unwrap();
      notify({ message: t('expand.done', { size }), intent: 'success', icon: 'tick' });
      setValue('');
      setTouched(false);
      props.onClose();
    } catch (err) {
      if (!(isApiError(err) && err.handled)) notify({ message: isApiError(err) ? err.message : t('expand.failed'), intent: 'danger', icon: 'error' });
    }
  };

  return (
    <Dialog isOpen={props.isOpen} onClose={props.onClose} title={t('expand.title')} style={{ width: DIALOG_WIDTH.sm }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <DialogBody>
          <FormGroup
            label={t('expand.label')}
            labelFor="storage-expand-size"
            intent={touched && error ? 'danger' : 'none'}
            helperText={touched && error ? t(error === 'cap' ? 'expand.cap' : 'expand.positive') : undefined}
          >
            <NumericInput
              id="storage-expand-size"
              fill
              autoFocus
              min={0}
              minorStepSize={0.1}
              value={value}
              intent={touched && error ? 'danger' : 'none'}
              onValueChange={(_n, text) => setValue(text)}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('expand.cancel')} onClick={props.onClose} />
              <BusyButton type="submit" intent="primary" text={t('expand.submit')} loading={state.isLoading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
