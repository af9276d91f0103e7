import type { Knex } from 'knex';
import * as createTenancy from './20261123100000_create_tenancy';
import * as createUsers from './20261123100100_create_users';
import * as createAccessControl from './20261123100200_create_access_control';
import * as createSessions from './20261123100300_create_sessions';
import * as createLogs from './20261123100400_create_logs';
import * as createServerKeys from './20261123100500_create_server_keys';
import * as seedDefaults from './20261123100600_seed_defaults';
import * as createJobs from './20261123110000_create_jobs';
import * as createProjects from './20261123120000_create_projects';
import * as createStorage from './20261123130000_create_storage';
import * as createDatasets from './20261123130100_create_datasets';
import * as createModelling from './20261123140000_create_modelling';
import * as createModelServices from './20261123150000_create_model_services';
import * as createModelServiceBatches from './20261123150010_create_model_service_batches';
import * as createDataConnections from './20261123160000_create_data_connections';
import * as createDataImports from './20261123160100_create_data_imports';
import * as createAnalysisReports from './20261123170000_create_analysis_reports';
import * as createBusinessDecisions from './20261123170010_create_business_decisions';
import * as modelServicePayloads from './20261124090000_model_service_payloads';
import * as dataImportsJob from './20261124100000_data_imports_job';
import * as modelServiceTokenExpiry from './20261125090000_model_service_token_expiry';
import * as signinGuard from './20261126150000_signin_guard';
import * as rewardCheckInitialDataset from './20261126160000_reward_check_initial_dataset';
import * as createOutbox from './20261127100000_create_outbox';
import * as createMessagesSupportLicences from './20261127110000_create_messages_support_licences';
import * as adminTenantsUsers from './20261127120000_admin_tenants_users';
import * as seedAreaPermissions from './20261127120100_seed_area_permissions';
import * as createScheduledJobs from './20261127130000_create_scheduled_jobs';
import * as createPidData from './20261127140000_create_pid_data';
import * as optionalSchemeRange from './20261127160000_optional_scheme_range';
import * as createElectricShow from './20261127180000_create_electric_show';
import * as contactRequestsHandled from './20261128100000_contact_requests_handled';
import * as studentFlagFromCertification from './20261128100100_student_flag_from_certification';
import * as createSshHostKeys from './20261128120000_create_ssh_host_keys';
import * as workerSshAddress from './20261128120100_add_worker_ssh_address';
import * as workerTerminalSandbox from './20261129110000_add_worker_terminal_sandbox';
import * as jobEngineVersion from './20261129120000_add_job_engine_version';
import * as keyBuiltinNames from './20261129231000_key_builtin_names';
import * as createPolicyUpdateRuns from './20261128110000_create_policy_update_runs';
import * as catalogueSideMenus from './20261128110100_catalogue_side_menus';
import * as createStorehouseMarket from './20261128140000_create_storehouse_market';
import * as grantMarketPublic from './20261128140100_grant_market_public';
import * as simulatorNodeScores from './20261128160000_add_simulator_node_scores';
import * as createJobMetrics from './20261128170000_create_job_metrics';
import * as tableAccessRevocation from './20261128180000_table_access_revocation';
import * as createDatasetRefreshClaims from './20261128200000_create_dataset_refresh_claims';
import * as dropElectricShowCalls from './20261129100000_drop_electric_show_calls';

/** One step of the migration history. */
export interface NamedMigration {
  name: string;
  up(knex: Knex): Promise<unknown>;
  down(knex: Knex): Promise<unknown>;
}

/** The core history, in order. Append new files here; never edit or reorder landed ones. */
export const coreMigrations: NamedMigration[] = [
  { name: '20261123100000_create_tenancy', ...createTenancy },
  { name: '20261123100100_create_users', ...createUsers },
  { name: '20261123100200_create_access_control', ...createAccessControl },
  { name: '20261123100300_create_sessions', ...createSessions },
  { name: '20261123100400_create_logs', ...createLogs },
  { name: '20261123100500_create_server_keys', ...createServerKeys },
  { name: '20261123100600_seed_defaults', ...seedDefaults },
  { name: '20261123110000_create_jobs', ...createJobs },
  { name: '20261123120000_create_projects', ...createProjects },
  { name: '20261123130000_create_storage', ...createStorage },
  { name: '20261123130100_create_datasets', ...createDatasets },
  { name: '20261123140000_create_modelling', ...createModelling },
  { name: '20261123150000_create_model_services', ...createModelServices },
  { name: '20261123150010_create_model_service_batches', ...createModelServiceBatches },
  { name: '20261123160000_create_data_connections', ...createDataConnections },
  { name: '20261123160100_create_data_imports', ...createDataImports },
  { name: '20261123170000_create_analysis_reports', ...createAnalysisReports },
  { name: '20261123170010_create_business_decisions', ...createBusinessDecisions },
  { name: '20261124090000_model_service_payloads', ...modelServicePayloads },
  { name: '20261124100000_data_imports_job', ...dataImportsJob },
  { name: '20261125090000_model_service_token_expiry', ...modelServiceTokenExpiry },
  { name: '20261126150000_signin_guard', ...signinGuard },
  { name: '20261126160000_reward_check_initial_dataset', ...rewardCheckInitialDataset },
  { name: '20261127100000_create_outbox', ...createOutbox },
  { name: '20261127110000_create_messages_support_licences', ...createMessagesSupportLicences },
  { name: '20261127120000_admin_tenants_users', ...adminTenantsUsers },
  { name: '20261127120100_seed_area_permissions', ...seedAreaPermissions },
  { name: '20261127130000_create_scheduled_jobs', ...createScheduledJobs },
  { name: '20261127140000_create_pid_data', ...createPidData },
  { name: '20261127160000_optional_scheme_range', ...optionalSchemeRange },
  { name: '20261127180000_create_electric_show', ...createElectricShow },
  { name: '20261128100000_contact_requests_handled', ...contactRequestsHandled },
  { name: '20261128100100_student_flag_from_certification', ...studentFlagFromCertification },
  { name: '20261128110000_create_policy_update_runs', ...createPolicyUpdateRuns },
  { name: '20261128110100_catalogue_side_menus', ...catalogueSideMenus },
  { name: '20261128120000_create_ssh_host_keys', ...createSshHostKeys },
  { name: '20261128120100_add_worker_ssh_address', ...workerSshAddress },
  { name: '20261128140000_create_storehouse_market', ...createStorehouseMarket },
  { name: '20261128140100_grant_market_public', ...grantMarketPublic },
  { name: '20261128160000_add_simulator_node_scores', ...simulatorNodeScores },
  { name: '20261128170000_create_job_metrics', ...createJobMetrics },
  { name: '20261128180000_table_access_revocation', ...tableAccessRevocation },
  { name: '20261128200000_create_dataset_refresh_claims', ...createDatasetRefreshClaims },
  { name: '20261129100000_drop_electric_show_calls', ...dropElectricShowCalls },
  { name: '20261129110000_add_worker_terminal_sandbox', ...workerTerminalSandbox },
  { name: '20261129120000_add_job_engine_version', ...jobEngineVersion },
  { name: '20261129231000_key_builtin_names', ...keyBuiltinNames },
];
