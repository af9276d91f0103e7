/**
 * Browser entry (`index.html`) and composition root: styles, the plugin list, then the
 * workbench. This is the only module allowed to import plugin manifests (lint rule
 * `decisio/boundaries`); tests read `APP_PLUGINS` from here (nothing renders without `#root`).
 */
import './jitless';
import { createRoot } from 'react-dom/client';
import '@blueprintjs/core/lib/css/blueprint.css';
import './theme/workbench.css';
import type { PluginManifest } from '@decisio/sdk-plugin';
import { accountPlugin } from '@decisio/plugin-account';
import { dashboardPlugin } from '@decisio/plugin-dashboard';
import { sdkPlugin } from '@decisio/plugin-sdk';
import { projectsPlugin } from '@decisio/plugin-projects';
import { storagePlugin } from '@decisio/plugin-storage';
import { deployPlugin } from '@decisio/plugin-deploy';
import { dataConnectionsPlugin } from '@decisio/plugin-data-connections';
import { workflowPlugin } from '@decisio/plugin-workflow';
import { patternPlugin } from '@decisio/plugin-pattern';
import { dataAccessPlugin } from '@decisio/plugin-data-access';
import { logsPlugin } from '@decisio/plugin-logs';
import { jobsPlugin } from '@decisio/plugin-jobs';
import { adminPlugin } from '@decisio/plugin-admin';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { schemePlugin } from '@decisio/plugin-scheme';
import { environmentPlugin } from '@decisio/plugin-environment';
import { rewardPlugin } from '@decisio/plugin-reward';
import { policyPlugin } from '@decisio/plugin-policy';
import { tuningPlugin } from '@decisio/plugin-tuning';
import { deductionPlugin } from '@decisio/plugin-deduction';
import { hyperparametersPlugin } from '@decisio/plugin-hyperparameters';
import { projectLogPlugin } from '@decisio/plugin-project-log';
import { reportsPlugin } from '@decisio/plugin-reports';
import { businessDecisionPlugin } from '@decisio/plugin-business-decision';
import { policyUpdatePlugin } from '@decisio/plugin-policy-update';
import { feedbackControlPlugin } from '@decisio/plugin-feedback-control';
import { sshTerminalPlugin } from '@decisio/plugin-ssh-terminal';
import { templatesPlugin } from '@decisio/plugin-templates';
import { storehousePlugin } from '@decisio/plugin-storehouse';
import { marketPlugin } from '@decisio/plugin-market';
import { electricPlugin } from '@decisio/plugin-electric';
import { templateElectricPlugin } from '@decisio/plugin-template-electric';
import { templateCouponPlugin } from '@decisio/plugin-template-coupon';
import { templateInventoryPlugin } from '@decisio/plugin-template-inventory';
import { messagesPlugin } from '@decisio/plugin-messages';
import { userCentrePlugin } from '@decisio/plugin-user-centre';
import { supportPlugin } from '@decisio/plugin-support';
import { sdkLicencePlugin } from '@decisio/plugin-sdk-licence';
import { createWorkbench, WorkbenchRoot } from './host/workbench';
import { StartFailed } from './shell/StartFailed';
import { installIconLoader } from './theme/icons';

/**
 * The plugins of the app, in no particular order (the host orders them by their
 * dependencies). Add a plugin here to ship it. Manifests are light: importing them loads no
 * panel code.
 */
export const APP_PLUGINS: readonly PluginManifest[] = [sdkPlugin, accountPlugin, dashboardPlugin, projectsPlugin, storagePlugin, deployPlugin, dataConnectionsPlugin, workflowPlugin, patternPlugin, dataAccessPlugin, logsPlugin, jobsPlugin, adminPlugin,
  trainingsKitPlugin, schemePlugin, environmentPlugin, rewardPlugin, policyPlugin, tuningPlugin, deductionPlugin, hyperparametersPlugin, projectLogPlugin, reportsPlugin, businessDecisionPlugin, policyUpdatePlugin, feedbackControlPlugin, sshTerminalPlugin, templatesPlugin, storehousePlugin, marketPlugin, templateElectricPlugin, templateCouponPlugin, templateInventoryPlugin, electricPlugin,
  messagesPlugin, supportPlugin, sdkLicencePlugin, userCentrePlugin];

const container = typeof document !== 'undefined' ? document.getElementById('root') : null;
if (container) {
  installIconLoader();
  const root = createRoot(container);
  createWorkbench({ plugins: APP_PLUGINS }).then(
    (wb) => root.render(<WorkbenchRoot workbench={wb} strict />),
    (error: unknown) => {
      console.error('[workbench] start failed', error);
      root.render(<StartFailed error={error} />);
    },
  );
}
