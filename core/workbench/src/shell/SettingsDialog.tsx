import { useEffect, useState } from 'react';
import { Button, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, NonIdealState, Switch } from '@blueprintjs/core';
import { DIALOG_WIDTH } from '@decisio/domain';
import { Dialog, NumericInput, validateSetting } from '@decisio/sdk-plugin';
import { useWorkbench } from '../host/workbench-context';
import { describeSettingField } from '../host/settings-form';
import { useWorkbenchT } from '../i18n/i18n';

/**
 * The settings form, generated from the plugins' setting contributions, in the SDK's `Dialog`: it
 * opens with the focus on the first setting (mounted closed: Blueprint gives the focus back when it fades).
 */
export function SettingsDialog(props: { isOpen: boolean; onClose: () => void; onClosed?: (dialog: HTMLElement) => void }) {
  const wb = useWorkbench();
  const { t } = useWorkbenchT();
  const all = wb.settings.all;
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (props.isOpen) {
      setValues(Object.fromEntries(all.map((s) => [s.id, wb.settings.get(s.id)])));
      setErrors({});
    }
  }, [props.isOpen, all, wb]);

  const save = () => {
    const errs: Record<string, string> = {};
    for (const s of all) {
      const r = validateSetting(s, values[s.id]);
      if (!r.ok) errs[s.id] = r.message;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;
    for (const s of all) wb.settings.set(s.id, values[s.id]);
    wb.notifications.show({ message: t('settings.saved'), intent: 'success' });
    props.onClose();
  };

  return (
    <Dialog isOpen={props.isOpen} onClose={props.onClose} onClosed={props.onClosed} title={t('settings.title')} icon="wrench" style={{ width: DIALOG_WIDTH.md }}>
      <DialogBody>
        {all.length === 0 && <NonIdealState icon="settings" description={t('settings.empty')} />}
        {all.map((s) => {
          const field = describeSettingField(s.schema);
          const label = wb.locale.t(`${s.id.split('.')[0]}:${s.titleKey}`);
          const help = s.descriptionKey ? wb.locale.t(`${s.id.split('.')[0]}:${s.descriptionKey}`) : undefined;
          const v = values[s.id];
          const set = (x: unknown) => setValues((o) => ({ ...o, [s.id]: x }));
          return (
            <FormGroup key={s.id} label={label} labelFor={`setting-${s.id}`} helperText={errors[s.id] ?? help} intent={errors[s.id] ? 'danger' : 'none'}>
              {field.kind === 'boolean' && <Switch id={`setting-${s.id}`} checked={!!v} onChange={(e) => set(e.currentTarget.checked)} />}
              {field.kind === 'number' && <NumericInput id={`setting-${s.id}`} value={typeof v === 'number' ? v : ''} onValueChange={(n) => set(n)} fill />}
              {field.kind === 'string' && <InputGroup id={`setting-${s.id}`} value={String(v ?? '')} onValueChange={(x) => set(x)} />}
              {field.kind === 'enum' && (
                <HTMLSelect id={`setting-${s.id}`} value={String(v)} options={field.options} onChange={(e) => set(e.currentTarget.value)} />
              )}
            </FormGroup>
          );
        })}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={props.onClose}>{t('settings.cancel')}</Button>
            <Button intent="primary" onClick={save} disabled={all.length === 0}>
              {t('settings.save')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
