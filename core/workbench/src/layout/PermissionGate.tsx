/**
 * The permission gate of a panel (`PanelContribution.permissions`): the panel renders only for a
 * user who holds one of the permissions it declares.
 */
import type { ReactNode } from 'react';
import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import { permissionsAllow, useCurrentUser } from '@decisio/sdk-plugin';
import { useWorkbenchT } from '../i18n/i18n';

/**
 * Renders `children` (a panel) only for a user holding one of `needs` (`'*'` holds every one): a
 * spinner while the user is not known yet, a load error with a Retry button when the user could
 * not be loaded (a failed `user/getUser`: nothing says the user lacks the right), the refusal state
 * ("You have no right to open this page") otherwise. The panel then neither loads nor calls the
 * server: a refused call answers `userNotPermission`, which signs the user out (spec platform §7).
 */
export function PermissionGate(props: { needs: readonly string[]; children: ReactNode }) {
  const { t } = useWorkbenchT();
  const user = useCurrentUser();
  if (!user.data && user.isError && !user.isFetching) {
    return (
      <div data-testid="panel-user-failed" role="alert" style={{ height: '100%' }}>
        <NonIdealState
          icon="error"
          title={t('layout.userFailed')}
          action={<Button icon="refresh" text={t('layout.userRetry')} onClick={() => void user.refetch()} data-testid="panel-user-retry" />}
        />
      </div>
    );
  }
  if (!user.data && (user.isLoading || user.isFetching)) return <NonIdealState icon={<Spinner size={32} />} description={t('layout.panelLoading')} />;
  if (!permissionsAllow(user.data, props.needs)) {
    return (
      <div data-testid="panel-no-permission" style={{ height: '100%' }}>
        <NonIdealState icon="lock" title={t('errors.noPermission')} />
      </div>
    );
  }
  return <>{props.children}</>;
}
