/** `/workflow`: goes on to `/workflow/table-correlation`, keeping the project link parameters. */
import { useEffect } from 'react';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { navigationServiceRef, useProjectLink, useService } from '@decisio/sdk-plugin';
import { useWorkflowT } from '../i18n';

export function WorkflowRedirect() {
  const { t } = useWorkflowT();
  const link = useProjectLink();
  const nav = useService(navigationServiceRef);
  useEffect(() => {
    nav.navigate('/workflow/table-correlation', { search: link.search(), replace: true });
  }, [nav, link]);
  return <NonIdealState icon={<Spinner size={24} />} title={t('redirecting')} />;
}

