/**
 * Template projects: `template/getTemplateList` and `template/createProject`, which creates a
 * project from an industry template and seeds its first solution through the existing services
 * (projects, solutions, storage + datasets, modelling records), as if the user had done it.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import { AppError, INDUSTRY_TEMPLATES, type CreateTemplateProjectInput, type IndustryTemplate, type Locale, type ProjectItem, type TemplateItem, type TemplateProject } from '@decisio/domain';
import type { ServerCallUser, ServerTemplate } from '@decisio/sdk-plugin/server';
import type { Database } from '../../db/database';
import type { DatasetsService } from '../datasets/service';
import type { ModellingRecords } from '../modelling/records';
import type { ProjectsService } from '../projects/service';
import type { SolutionsService } from '../solutions/service';
import type { BlobStore } from '../storage/blob-store';
import { dataKey, type StorageService } from '../storage/service';
import type { TemplateRegistry } from './registry';

/** Numbered names are tried up to this count (`name`, `name 2`, ... `name 50`). */
const NAME_TRIES = 50;

/** `name`, then `name 2`, `name 3`, ... cut so that the whole fits in `max` characters. */
export function numberedName(name: string, n: number, max: number): string {
  if (n === 1) return name.slice(0, max);
  const suffix = ` ${n}`;
  return name.slice(0, max - suffix.length).trimEnd() + suffix;
}

function isCode(err: unknown, name: string): boolean {
  return err instanceof AppError && err.codeName === name;
}

/** Files a template project stored: keys, and folders of keys. */
interface Written {
  keys: string[];
  prefixes: string[];
}

export interface TemplatesDeps {
  db: Database;
  blobs: BlobStore;
  projects: ProjectsService;
  solutions: SolutionsService;
  storage: StorageService;
  datasets: DatasetsService;
  records: ModellingRecords;
  /** The templates the server's plugins contribute. */
  templates: TemplateRegistry;
}

export class TemplatesService {
  constructor(private readonly deps: TemplatesDeps) {}

  /** Every template of the loaded plugins, in plugin order. */
  list(): Promise<TemplateItem[]> {
    return Promise.all(this.deps.templates.all().map((t) => this.deps.templates.present(t.def.id)));
  }

  /**
   * Creates a project from a template and seeds its first solution: the template's data as an
   * uploaded CSV file and a business dataset of the project (charged to the caller's quota), the
   * table correlation (trajectory, sequence and datetime fields), the decision graph and the
   * reward (`reward.py`). Schemes and trainings are left to the user. The rows and the quota
   * charges are written in one transaction; the files (the upload's parts and stored file, the
   * dataset's Parquet copy) are deleted when it fails or does not commit: a failure leaves
   * nothing behind.
   */
  async createProject(user: ServerCallUser, input: CreateTemplateProjectInput, locale: Locale): Promise<TemplateProject> {
    const def = this.deps.templates.get(input.templateId)?.def;
    if (!def) throw new AppError('paramInvalid', { templateId: 'validation.invalid' });
    // Read (and checked) before anything is written.
    const { csv } = await this.deps.templates.dataOf(def.id);
    const written: Written = { keys: [], prefixes: [] };
    try {
      return await this.deps.db.transaction(() => this.seed(user, def, csv, input, locale, written));
    } catch (err) {
      for (const prefix of written.prefixes) await this.deps.blobs.removePrefix(prefix).catch(() => undefined);
      for (const key of written.keys) await this.deps.blobs.remove(key).catch(() => undefined);
      throw err;
    }
  }

  /** The steps of `createProject`, noting in `written` each file they store as soon as it may exist. */
  private async seed(user: ServerCallUser, def: ServerTemplate, csv: Buffer, input: CreateTemplateProjectInput, locale: Locale, written: Written): Promise<TemplateProject> {
    const project = await this.createProjectRow(user, def, input, locale);
    const projectId = project.projectId;
    const solution = await this.deps.solutions.create(user, {
      projectId,
      name: def.solutionName[locale],
      dataType: 'data_driven',
      goalType: 'policy_search',
      description: def.name[locale],
    });
    const solutionId = solution.solutionId;

    // The data: an upload of the template's CSV file (as the browser would send it), then a dataset of it.
    const owner = { tenantId: user.tenantId, userId: user.id };
    const upload = await this.deps.storage.initUpload(owner, { name: `${def.id}-template.csv`, size: csv.length, purpose: 'dataset' });
    // The upload's folder (its parts' data file, moved out when it completes).
    written.prefixes.push(path.posix.dirname(dataKey(upload.uploadId)));
    for (let part = 1; part <= upload.partCount; part++) {
      const start = (part - 1) * upload.partSize;
      await this.deps.storage.writePart(owner, upload.uploadId, part, Readable.from([csv.subarray(start, Math.min(csv.length, start + upload.partSize))]));
    }
    const file = await this.deps.storage.completeUpload(owner, upload.uploadId);
    written.keys.push((await this.deps.storage.fileRow(owner, file.fileId)).blob_key);
    let datasetId = '';
    for (let n = 1; !datasetId; n++) {
      try {
        datasetId = (await this.deps.datasets.create(user, { fileId: file.fileId, name: numberedName(def.datasetName[locale], n, 30), type: 'business', projectId })).tableId;
      } catch (err) {
        if (!isCode(err, 'tableNameUsed') || n >= NAME_TRIES) throw err;
      }
    }
    written.keys.push((await this.deps.datasets.row(user, datasetId, 'owner')).blob_key);

    await this.deps.records.setTableCorrelation(user, {
      solutionId,
      correlation: {
        primaryTableId: datasetId,
        datasetId,
        trajectoryField: def.data.trajectoryField,
        sequenceField: def.data.sequenceField,
        datetimeField: def.data.datetimeField,
        relations: [],
      },
    });
    await this.deps.records.setPattern(user, { solutionId, graph: structuredClone(def.graphDocument) }, locale);
    const objective = await this.deps.records.createObjective(user, {
      solutionId,
      name: def.rewardName[locale],
      description: def.rewardDescription[locale],
      files: { 'reward.py': def.reward },
    });
    return { project: await this.deps.projects.get(user, projectId), templateId: def.id, solutionId, datasetId, fileId: file.fileId, objectiveId: String(objective.id) };
  }

  /** The project; without a name, the template's default name, numbered while taken. */
  private async createProjectRow(user: ServerCallUser, def: ServerTemplate, input: CreateTemplateProjectInput, locale: Locale): Promise<ProjectItem> {
    // The project records the template's industry where it is one the project form knows.
    const industryTemplate = (INDUSTRY_TEMPLATES as readonly string[]).includes(def.industry) ? (def.industry as IndustryTemplate) : null;
    const fields = { colour: input.colour ?? def.colour, industryTemplate, info: input.info ?? def.name[locale], imageVersion: input.imageVersion ?? null };
    if (input.name) return this.deps.projects.create(user, { ...fields, name: input.name });
    for (let n = 1; ; n++) {
      try {
        return await this.deps.projects.create(user, { ...fields, name: numberedName(def.projectName[locale], n, 20) });
      } catch (err) {
        if (!isCode(err, 'projectNameUsed') || n >= NAME_TRIES) throw err;
      }
    }
  }
}
