import { useEffect, useMemo, useState } from 'react';
import { Dialog, DialogBody, InputGroup, Menu, MenuItem, NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { DIALOG_WIDTH } from '@decisio/domain';
import { useWorkbench } from '../host/workbench-context';
import { useWorkbenchT } from '../i18n/i18n';

/** The command palette: every enabled contributed command, filtered by its translated title. */
export function CommandPalette(props: { isOpen: boolean; onClose: () => void }) {
  const wb = useWorkbench();
  const { t } = useWorkbenchT();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  useEffect(() => {
    if (props.isOpen) {
      setQuery('');
      setActive(0);
    }
  }, [props.isOpen]);
  const items = useMemo(() => {
    if (!props.isOpen) return [];
    const q = query.trim().toLowerCase();
    return wb.host.commands
      .filter((c) => wb.commands.isEnabled(c.id))
      .map((c) => ({ c, title: wb.locale.t(`${c.pluginId}:${c.titleKey}`) }))
      .filter((x) => !q || x.title.toLowerCase().includes(q) || x.c.id.toLowerCase().includes(q));
  }, [wb, query, props.isOpen]);
  const run = (i: number) => {
    const item = items[i];
    if (!item) return;
    props.onClose();
    void wb.commands.execute(item.c.id);
  };
  return (
    <Dialog isOpen={props.isOpen} onClose={props.onClose} title={t('palette.title')} icon="console" style={{ width: DIALOG_WIDTH.sm }}>
      <DialogBody>
        <InputGroup
          autoFocus
          leftIcon="search"
          placeholder={t('palette.placeholder')}
          value={query}
          data-testid="command-palette-input"
          onValueChange={(v) => (setQuery(v), setActive(0))}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, items.length - 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
            else if (e.key === 'Enter') run(active);
            else return;
            e.preventDefault();
          }}
        />
        {items.length === 0 ? (
          <NonIdealState icon="search" description={t('palette.empty')} />
        ) : (
          <Menu className="dc-palette-list">
            {items.map((x, i) => (
              <MenuItem
                key={x.c.id}
                icon={x.c.icon as IconName | undefined}
                text={x.title}
                label={x.c.keybinding}
                active={i === active}
                onClick={() => run(i)}
                data-testid={`command-${x.c.id}`}
              />
            ))}
          </Menu>
        )}
      </DialogBody>
    </Dialog>
  );
}
