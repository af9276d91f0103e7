/**
 * `solution/importRevive` (issue 22 item 5): a REVIVE folder as it is. The YAML becomes the
 * solution's decision graph (its min/max kept), the data file (an upload of the caller: npz,
 * h5 or REVIVE's csv with node-named columns and pandas' unnamed row number) a data table of
 * the YAML's fields (`reviveTable` of the learning engine) with the table correlation that
 * reads it (`trajectory`, `step`), and `reward.py` a reward. Everything is checked before
 * anything is written: the YAML, the features the engine runs, the data against the graph
 * (a data set is built as training will), the graph's validation rules; a CSV with an unnamed
 * column gets a question back (drop it, or keep it under a name) and nothing is created.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import {
  AppError,
  type Locale,
  type ReviveImportReply,
  type ReviveImportRequest,
} from '@decisio/domain';
import {
  LearningError,
  buildDataset,
  fromTable,
  importReviveYaml,
  readH5,
  readNpz,
  reviveTable,
  reviveTableCsv,
  unsupportedReviveFeatures,
  type DecisionGraph,
  type NdArray,
} from '@decisio/learning';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { systemClock } from '../../clock';
import { newId } from '../../db/ids';
import type { DatasetsService } from '../datasets/service';
import { ingestCsv } from '../datasets/ingest';
import type { ModellingDeps } from '../modelling/common';
import { solutionScope } from '../projects/access';
import { ModellingRecords } from '../modelling/records';
import { StorageService } from '../storage/service';

/** What the import needs from the composition root. */
export interface ReviveImportDeps extends ModellingDeps {
  datasets: DatasetsService;
}

function dataKind(name: string): 'npz' | 'h5' | 'csv' | null {
  const ext = name.toLowerCase().split('.').pop();
  if (ext === 'npz' || ext === 'csv') return ext;
  if (ext === 'h5' || ext === 'hdf5') return 'h5';
  return null;
}

/** A free reward name in the solution (`reward`, `reward 2`, ...). */
async function freeRewardName(deps: ReviveImportDeps, solutionId: string, wanted: string): Promise<string> {
  const taken = new Set((await deps.db.executor()('objectives').where({ solution_id: solutionId }).select('name')).map((r: { name: string }) => r.name));
  if (!taken.has(wanted)) return wanted;
  for (let i = 2; ; i++) {
    const n = `${wanted.slice(0, 17)} ${i}`;
    if (!taken.has(n)) return n;
  }
}

/** Imports a REVIVE folder into a solution (see the module comment). */
export class ReviveImport {
  private readonly records: ModellingRecords;
  private readonly storage: StorageService;

  constructor(private readonly deps: ReviveImportDeps) {
    this.records = new ModellingRecords(deps);
    this.storage = new StorageService(deps.db, deps.blobs, systemClock);
  }

  async run(user: ServerCallUser, input: ReviveImportRequest, locale: Locale): Promise<ReviveImportReply> {
    const { project } = await solutionScope(this.deps.db.executor(), user, input.solutionId, 'edit');
    const learning = (err: unknown, code: 'reviveYamlInvalid' | 'reviveDataInvalid', field: string): never => {
      if (err instanceof LearningError) throw new AppError(code, { [field]: err.localized(locale) }, err.message);
      throw err;
    };

    // the YAML, with the folder's expert function code attached to its nodes
    let graph: DecisionGraph;
    let warnings: string[];
    try {
      ({ graph, warnings } = importReviveYaml(input.yaml, input.agents ? { agents: input.agents } : {}));
    } catch (err) {
      return learning(err, 'reviveYamlInvalid', 'yaml');
    }
    const files = input.files ?? {};
    for (const n of graph.nodes) if (n.function?.kind === 'python' && files[n.function.file] !== undefined) n.function.code = files[n.function.file];
    const unsupported = unsupportedReviveFeatures(graph);
    if (unsupported.length > 0) throw new AppError('reviveFeatureUnsupported', { yaml: unsupported.map((u) => u.feature).join(', ') });

    // the data file onto the YAML's fields
    const owner = { tenantId: user.tenantId, userId: user.id };
    const file = await this.storage.fileRow(owner, input.dataFileId);
    const kind = dataKind(file.name);
    if (!kind) throw new AppError('reviveDataInvalid', { dataFileId: 'npz, h5 or csv' });
    const bytes = new Uint8Array(await fsp.readFile(this.deps.blobs.pathOf(file.blob_key)));
    let mapped;
    try {
      const arrays: Record<string, NdArray> | null = kind === 'npz' ? readNpz(bytes) : kind === 'h5' ? await readH5(bytes) : null;
      mapped = reviveTable(graph, arrays ? { kind: 'arrays', arrays } : { kind: 'csv', text: new TextDecoder().decode(bytes) }, input.indexColumn ? { indexColumn: input.indexColumn } : {});
      if (mapped.kind === 'indexColumn') return { status: 'indexColumn', position: mapped.position, sample: mapped.sample };
      // as training will build it: every node present, dims, values inside categories, ...
      buildDataset(graph, fromTable(graph, mapped.columns, { trajectoryField: mapped.trajectoryField, sequenceField: mapped.sequenceField }));
    } catch (err) {
      return learning(err, 'reviveDataInvalid', 'dataFileId');
    }

    // the table, then the graph, correlation and reward (the table dropped if any of them fails)
    const tableId = newId();
    const dir = path.dirname(this.deps.blobs.tempPathOf(`u/${user.id}/revive/${tableId}`));
    await fsp.mkdir(dir, { recursive: true });
    const csv = path.join(dir, `${tableId}.csv`);
    const parquet = path.join(dir, `${tableId}.parquet`);
    try {
      await fsp.writeFile(csv, reviveTableCsv(mapped));
      await ingestCsv(csv, parquet);
      await this.deps.datasets.adoptParquet(owner, parquet, { id: tableId, name: input.tableName, type: 'business', fileType: 'csv', fileName: file.name, size: bytes.length, projectId: project.id });
    } finally {
      await fsp.rm(csv, { force: true });
      await fsp.rm(parquet, { force: true });
    }
    let objectiveId: string | null = null;
    try {
      const codeFiles = Object.fromEntries(Object.entries(files).filter(([k]) => graph.nodes.some((n) => n.function?.kind === 'python' && n.function.file === k)));
      await this.records.setPattern(user, { solutionId: input.solutionId, graph, files: codeFiles }, locale);
      await this.records.setTableCorrelation(user, { solutionId: input.solutionId, correlation: { primaryTableId: tableId, datasetId: tableId, trajectoryField: mapped.trajectoryField, sequenceField: mapped.sequenceField, relations: [] } }, locale);
      if (input.reward !== undefined) {
        const name = await freeRewardName(this.deps, input.solutionId, input.rewardName ?? 'reward');
        const made = await this.records.createObjective(user, { solutionId: input.solutionId, name, description: 'Imported from a REVIVE folder', files: { 'reward.py': input.reward, ...files } }, locale);
        objectiveId = String((made as { objectiveId?: unknown; id?: unknown }).objectiveId ?? (made as { id?: unknown }).id);
      }
    } catch (err) {
      await this.deps.datasets.drop(user, tableId).catch(() => undefined);
      throw err;
    }
    return {
      status: 'imported',
      tableId,
      objectiveId,
      nodes: graph.nodes.map((n) => ({ name: n.name, role: n.role, fields: n.fields.map((f) => f.name) })),
      report: { ...mapped.report, warnings },
    };
  }
}
