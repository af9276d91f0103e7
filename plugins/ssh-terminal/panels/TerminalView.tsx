/** xterm bound to the server's SSH session over `/api/ssh/terminal?ticket=` (WebSocket). */
import { useEffect, useRef, useState } from 'react';
import { Button, Callout, Tag } from '@blueprintjs/core';
import { SSH_CLOSE } from '@decisio/domain';
import { useSshT } from '../i18n';

export function TerminalView(props: { ticket: string; target: string; idleMinutes: number; onDisconnect(): void; onNew(): void }) {
  const { t } = useSshT();
  const host = useRef<HTMLDivElement>(null);
  const [ended, setEnded] = useState<number | null>(null);

  useEffect(() => {
    let disposed = false;
    let cleanup = () => undefined as void;
    void (async () => {
      const [{ Terminal }, { FitAddon }] = await Promise.all([import('@xterm/xterm'), import('@xterm/addon-fit'), import('@xterm/xterm/css/xterm.css')]);
      if (disposed || !host.current) return;
      const term = new Terminal({ cursorBlink: true, fontSize: 13, convertEol: false });
      const fit = new FitAddon();
      term.loadAddon(fit);
      term.open(host.current);
      fit.fit();
      const url = `${location.origin.replace(/^http/, 'ws')}/api/ssh/terminal?ticket=${encodeURIComponent(props.ticket)}`;
      const ws = new WebSocket(url);
      ws.binaryType = 'arraybuffer';
      const resize = () => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'resize', cols: term.cols, rows: term.rows }));
      ws.onopen = () => {
        resize();
        term.focus();
      };
      ws.onmessage = (e) => term.write(typeof e.data === 'string' ? e.data : new Uint8Array(e.data as ArrayBuffer));
      ws.onclose = (e) => setEnded(e.code);
      const input = term.onData((d) => ws.readyState === WebSocket.OPEN && ws.send(d));
      const observer = new ResizeObserver(() => {
        fit.fit();
        resize();
      });
      observer.observe(host.current);
      cleanup = () => {
        observer.disconnect();
        input.dispose();
        ws.close();
        term.dispose();
      };
    })();
    return () => {
      disposed = true;
      cleanup();
    };
  }, [props.ticket]);

  const message = ended === null ? null : ended === SSH_CLOSE.idle ? t('session.idle', { minutes: props.idleMinutes }) : ended === SSH_CLOSE.noSession ? t('session.noSession') : ended === SSH_CLOSE.ended ? t('session.ended') : t('session.lost');
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8, flex: 1, minHeight: 0 }} data-testid="ssh-terminal" data-ended={ended ?? ''}>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <Tag intent={ended === null ? 'success' : 'none'}>{t('session.connected', { target: props.target })}</Tag>
        {ended === null ? (
          <Button icon="disable" onClick={props.onDisconnect} data-testid="ssh-disconnect">
            {t('session.disconnect')}
          </Button>
        ) : (
          <Button icon="add" onClick={props.onNew} data-testid="ssh-new">
            {t('session.again')}
          </Button>
        )}
      </div>
      {message ? <Callout data-testid="ssh-ended">{message}</Callout> : null}
      <div ref={host} style={{ flex: 1, minHeight: 320, background: '#000', padding: 4 }} data-testid="ssh-xterm" />
    </div>
  );
}
