/**
 * The SSH terminal pieces shared by the SSH page (`plugins/ssh-terminal`) and the terminal into a
 * training's worker (the trainings kit's detail): {@link SshTerminalView}, xterm bound to a server
 * session over `/api/ssh/terminal?ticket=` (xterm loads with `import()` when a session opens), and
 * {@link HostKeyNotice}, what the user sees when the server meets an unknown or changed host key.
 * Texts come from the caller's translations ({@link SshTerminalLabels}).
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Callout, Tag } from '@blueprintjs/core';
import { BusyButton } from './react';
import { ErrorCode, SSH_CLOSE, type SshHostKey, type SshHostKeyErrorDetails } from '@decisio/domain';
import type { ApiError } from './api';

/** Texts of the terminal, translated by the caller. */
export interface SshTerminalLabels {
  /** "Connected to {target}". */
  connected: string;
  disconnect: string;
  again: string;
  ended: string;
  idle: string;
  noSession: string;
  lost: string;
  /** "Host key {fingerprint} ({type})": shown beside the target. */
  hostKey?: string;
}

/** xterm bound to the server's SSH session `ticket`; ends with the server's close reason. */
export function SshTerminalView(props: { ticket: string; target: string; hostKey?: SshHostKey; labels: SshTerminalLabels; onDisconnect(): void; onNew(): void; minHeight?: number }) {
  const host = useRef<HTMLDivElement>(null);
  const [ended, setEnded] = useState<number | null>(null);

  useEffect(() => {
    let disposed = false;
    let cleanup = () => undefined as void;
    setEnded(null);
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

  const l = props.labels;
  const message = ended === null ? null : ended === SSH_CLOSE.idle ? l.idle : ended === SSH_CLOSE.noSession ? l.noSession : ended === SSH_CLOSE.ended ? l.ended : l.lost;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8, flex: 1, minHeight: 0 }} data-testid="ssh-terminal" data-ended={ended ?? ''}>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <Tag intent={ended === null ? 'success' : 'none'}>{l.connected}</Tag>
        {props.hostKey && l.hostKey ? (
          <Tag minimal icon="key" data-testid="ssh-host-key" data-fingerprint={props.hostKey.fingerprint} data-trust={props.hostKey.trust}>
            {l.hostKey}
          </Tag>
        ) : null}
        {ended === null ? (
          <Button icon="disable" onClick={props.onDisconnect} data-testid="ssh-disconnect">
            {l.disconnect}
          </Button>
        ) : (
          <Button icon="add" onClick={props.onNew} data-testid="ssh-new">
            {l.again}
          </Button>
        )}
      </div>
      {message ? <Callout data-testid="ssh-ended">{message}</Callout> : null}
      <div ref={host} style={{ flex: 1, minHeight: props.minHeight ?? 320, background: '#000', padding: 4 }} data-testid="ssh-xterm" />
    </div>
  );
}

/** The host-key details of an `sshHostKeyUnknown` / `sshHostKeyChanged` error; null for other errors. */
export function hostKeyProblem(error: ApiError | undefined | null): (SshHostKeyErrorDetails & { changed: boolean }) | null {
  if (!error || (error.code !== ErrorCode.sshHostKeyUnknown && error.code !== ErrorCode.sshHostKeyChanged)) return null;
  const e = (error.errors ?? {}) as Partial<SshHostKeyErrorDetails>;
  if (!e.fingerprint) return null;
  return { host: e.host ?? '', port: e.port ?? '', keyType: e.keyType ?? '', fingerprint: e.fingerprint, ...(e.storedFingerprint ? { storedFingerprint: e.storedFingerprint } : {}), changed: error.code === ErrorCode.sshHostKeyChanged };
}

/** Texts of {@link HostKeyNotice}, translated by the caller. */
export interface HostKeyNoticeLabels {
  unknownTitle: string;
  /** Explains what to compare the fingerprint with. */
  unknownHint: string;
  trust: string;
  changedTitle: string;
  /** The server's message (why it was refused, what to do). */
  changedHint: string;
  presented: string;
  stored: string;
  /** Absent: no forget button (e.g. keys the operator lists). */
  forget?: string;
}

/**
 * What the user sees when a host's key is unknown (its fingerprint and "trust and connect") or
 * changed (both fingerprints, refused; optionally "forget the stored key").
 */
export function HostKeyNotice(props: { problem: SshHostKeyErrorDetails & { changed: boolean }; labels: HostKeyNoticeLabels; busy?: boolean; onTrust(fingerprint: string): void; onForget?(): void }) {
  const { problem: p, labels: l } = props;
  const code = (v: string) => <code style={{ wordBreak: 'break-all' }}>{v}</code>;
  if (!p.changed) {
    return (
      <Callout intent="primary" icon="key" title={l.unknownTitle} data-testid="ssh-host-key-unknown" data-fingerprint={p.fingerprint}>
        <p>{l.unknownHint}</p>
        <p>
          {p.keyType} {code(p.fingerprint)}
        </p>
        <BusyButton intent="primary" icon="tick" loading={props.busy} onClick={() => props.onTrust(p.fingerprint)} data-testid="ssh-trust">
          {l.trust}
        </BusyButton>
      </Callout>
    );
  }
  return (
    <Callout intent="danger" icon="warning-sign" title={l.changedTitle} data-testid="ssh-host-key-changed">
      <p>{l.changedHint}</p>
      <p>
        {l.presented}: {p.keyType} {code(p.fingerprint)}
      </p>
      {p.storedFingerprint ? (
        <p>
          {l.stored}: {code(p.storedFingerprint)}
        </p>
      ) : null}
      {l.forget && props.onForget ? (
        <BusyButton icon="trash" loading={props.busy} onClick={props.onForget} data-testid="ssh-forget-key">
          {l.forget}
        </BusyButton>
      ) : null}
    </Callout>
  );
}
