/** The SDK's xterm view with this plugin's texts. */
import type { SshHostKey } from '@decisio/domain';
import { SshTerminalView } from '@decisio/sdk-plugin';
import { useSshT } from '../i18n';

export function TerminalView(props: { ticket: string; target: string; idleMinutes: number; hostKey?: SshHostKey; onDisconnect(): void; onNew(): void }) {
  const { t } = useSshT();
  const labels = {
    connected: t('session.connected', { target: props.target }),
    disconnect: t('session.disconnect'),
    again: t('session.again'),
    ended: t('session.ended'),
    idle: t('session.idle', { minutes: props.idleMinutes }),
    noSession: t('session.noSession'),
    lost: t('session.lost'),
    ...(props.hostKey ? { hostKey: t(`hostKey.kind.${props.hostKey.trust}`, { fingerprint: props.hostKey.fingerprint, type: props.hostKey.type }) } : {}),
  };
  return <SshTerminalView ticket={props.ticket} target={props.target} {...(props.hostKey ? { hostKey: props.hostKey } : {})} labels={labels} onDisconnect={props.onDisconnect} onNew={props.onNew} />;
}
