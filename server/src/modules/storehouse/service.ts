/**
 * The template storehouse (`templateWarehouse/*`): the templates and their fields, the
 * recognizer run on a dataset of the caller (the columns' types, ranges and distinct counts read
 * from its columnar copy with DuckDB, matched to every template by `recognizer.ts`, kept as a
 * recognition row), and a project made from a template with the caller's rows mapped onto its
 * fields, through the other modules' services as the template centre does.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  AppError,
  type CreateStorehouseProjectInput,
  type Locale,
  type ProjectItem,
  type Recognition,
  type RecognizedColumn,
  type StorehouseListRequest,
  type StorehouseProject,
  type StorehouseTemplate,
  type StorehouseTemplateType,
  type StorehouseValueType,
  INDUSTRY_TEMPLATES,
  type IndustryTemplate,
  type TemplateMatch,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { isNumericType, sqlIdent, sqlString, withDuck } from '../datasets/duck';
import type { DatasetsService } from '../datasets/service';
import type { ModellingRecords } from '../modelling/records';
import type { ProjectsService } from '../projects/service';
import type { SolutionsService } from '../solutions/service';
import type { BlobStore } from '../storage/blob-store';
import { toDate } from '../storage/service';
import { numberedName } from '../templates/service';
import { presentStorehouseTemplate, type CatalogueTemplate, type StorehouseCatalogue } from './catalogue';
import { matchTemplate, typeScore } from './recognizer';

/** Numbered names are tried up to this count. */
const NAME_TRIES = 50;

export interface StorehouseDeps {
  db: Database;
  blobs: BlobStore;
  clock: Clock;
  projects: ProjectsService;
  solutions: SolutionsService;
  datasets: DatasetsService;
  records: ModellingRecords;
  catalogue: StorehouseCatalogue;
}

interface RecognitionRow {
  id: string;
  tenant_id: string;
  user_id: string;
  dataset_id: string;
  dataset_name: string;
  rows: number | string;
  columns: string;
  matches: string;
  project_id: string | null;
  created_at: unknown;
}

function isCode(err: unknown, name: string): boolean {
  return err instanceof AppError && err.codeName === name;
}

function iso(v: unknown): string {
  return toDate(v)?.toISOString() ?? '';
}

const INTEGER_TYPES = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/i;

/**
 * The columns of a Parquet file as the recognizer compares them: value type (integer when
 * every value of a numeric column is whole, datetime for date/time columns and for text that
 * reads as timestamps in every non-empty row), range of numeric columns, approximate distinct
 * count.
 */
export async function describeColumns(parquet: string): Promise<{ rows: number; columns: RecognizedColumn[] }> {
  return withDuck(async (c) => {
    const from = `read_parquet(${sqlString(parquet)})`;
    const described = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`)).getRowObjectsJS().map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
    const parts: string[] = ['count(*)::DOUBLE AS n'];
    described.forEach((col, i) => {
      const q = sqlIdent(col.name);
      parts.push(`approx_count_distinct(${q})::DOUBLE AS d${i}`, `count(${q})::DOUBLE AS c${i}`);
      if (isNumericType(col.type)) parts.push(`min(${q})::DOUBLE AS mn${i}`, `max(${q})::DOUBLE AS mx${i}`, `bool_and(${q}::DOUBLE = floor(${q}::DOUBLE)) AS w${i}`);
      else if (/^VARCHAR$/i.test(col.type)) parts.push(`count(try_cast(${q} AS TIMESTAMP))::DOUBLE AS t${i}`);
    });
    const row = (await c.runAndReadAll(`SELECT ${parts.join(', ')} FROM ${from}`)).getRowObjectsJS()[0]!;
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    const columns = described.map((col, i): RecognizedColumn => {
      let valueType: StorehouseValueType = 'text';
      let min: number | null = null;
      let max: number | null = null;
      if (isNumericType(col.type)) {
        min = num(row[`mn${i}`]);
        max = num(row[`mx${i}`]);
        valueType = INTEGER_TYPES.test(col.type) || row[`w${i}`] === true ? 'integer' : 'number';
      } else if (/^(DATE|TIMESTAMP.*|TIME)$/i.test(col.type)) valueType = 'datetime';
      else if (/^VARCHAR$/i.test(col.type)) {
        const filled = Number(row[`c${i}`] ?? 0);
        if (filled > 0 && Number(row[`t${i}`] ?? 0) === filled) valueType = 'datetime';
      }
      return { name: col.name, type: col.type, valueType, min, max, distinct: Number(row[`d${i}`] ?? 0) };
    });
    return { rows: Number(row.n ?? 0), columns };
  });
}

export class StorehouseService {
  constructor(private readonly deps: StorehouseDeps) {}

  private get knex() {
    return this.deps.db.executor();
  }

  /** Templates, filtered by industry and by a keyword in their names, descriptions or field names. */
  async list(q: StorehouseListRequest): Promise<StorehouseTemplate[]> {
    const keyword = q.keyword?.trim().toLowerCase();
    return (await this.deps.catalogue.all())
      .filter((t) => !q.type || t.type === q.type)
      .filter(
        (t) =>
          !keyword ||
          [...Object.values(t.name), ...Object.values(t.description), ...t.fields.map((f) => f.name)].some((s) => s.toLowerCase().includes(keyword)),
      )
      .map(presentStorehouseTemplate);
  }

  types(): StorehouseTemplateType[] {
    return this.deps.catalogue.types();
  }

  /**
   * Runs the recognizer on a dataset the caller may read and keeps the result (best match first).
   * @throws AppError `tableNotFound` for a dataset the caller may not read.
   */
  async recognize(user: ServerCallUser, input: { tableId: string; templateId?: string }): Promise<Recognition> {
    const dataset = await this.deps.datasets.row(user, input.tableId, 'view');
    const { rows, columns } = await describeColumns(this.deps.blobs.pathOf(dataset.blob_key));
    const matches: TemplateMatch[] = (await this.deps.catalogue.all())
      .filter((t) => !input.templateId || t.templateId === input.templateId)
      .map((t) => {
        const m = matchTemplate(t.fields, columns);
        return { templateId: t.templateId, name: t.name, score: m.score, complete: m.missing.length === 0, mapping: m.mapping, missing: m.missing };
      })
      .sort((a, b) => b.score - a.score);
    const id = newId();
    const now = this.deps.clock.now();
    await this.knex('template_recognitions').insert({
      id,
      tenant_id: user.tenantId,
      user_id: user.id,
      dataset_id: dataset.id,
      dataset_name: dataset.name,
      rows,
      columns: JSON.stringify(columns),
      matches: JSON.stringify(matches),
      project_id: null,
      created_at: now,
    });
    return this.result(user, id);
  }

  /** A recognition of the caller (`recognitionNotFound` for anyone else's, or another tenant's). */
  async result(user: ServerCallUser, recognitionId: string): Promise<Recognition> {
    return present(await this.row(user, recognitionId));
  }

  private async row(user: ServerCallUser, recognitionId: string): Promise<RecognitionRow> {
    const row = (await this.knex('template_recognitions').where({ id: recognitionId, tenant_id: user.tenantId, user_id: user.id }).first()) as RecognitionRow | undefined;
    if (!row) throw new AppError('recognitionNotFound');
    return row;
  }

  /**
   * A project from the template with the recognised table's rows mapped onto its fields: the
   * project, its first solution, a business dataset of the project (the caller's rows with the
   * mapped columns renamed to the template's fields, charged to the caller), the table
   * correlation, the template's graph and reward. One transaction; the dataset's file is removed
   * when it fails.
   * @throws AppError `templateMappingInvalid` (with the field at fault) when a field has no
   *   column, a column is unknown, used twice or of a type that cannot fill the field.
   */
  async createProject(user: ServerCallUser, input: CreateStorehouseProjectInput, locale: Locale): Promise<StorehouseProject> {
    const rec = await this.row(user, input.recognitionId);
    const template = await this.deps.catalogue.get(input.templateId);
    if (!template) throw new AppError('storehouseTemplateNotFound');
    const columns = JSON.parse(rec.columns) as RecognizedColumn[];
    const pairs = checkMapping(template, columns, input.mapping);
    const dataset = await this.deps.datasets.row(user, rec.dataset_id, 'view');

    const datasetId = newId();
    const key = `u/${user.id}/ds/${datasetId}.parquet`;
    const tmp = `${this.deps.blobs.tempPathOf(key)}.mapped.parquet`;
    await fsp.mkdir(path.dirname(tmp), { recursive: true });
    try {
      const select = pairs
        .map(({ field, column }) => {
          const q = sqlIdent(column.name);
          // Text that reads as timestamps becomes a timestamp column, as the template's is.
          const value = field.role === 'datetime' && /^VARCHAR$/i.test(column.type) ? `try_cast(${q} AS TIMESTAMP)` : q;
          return `${value} AS ${sqlIdent(field.name)}`;
        })
        .join(', ');
      await withDuck((c) => c.run(`COPY (SELECT ${select} FROM read_parquet(${sqlString(this.deps.blobs.pathOf(dataset.blob_key))})) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`));
      return await this.deps.db.transaction(async () => {
        const project = await this.createProjectRow(user, template, input, locale);
        const solution = await this.deps.solutions.create(user, {
          projectId: project.projectId,
          name: template.def.solutionName[locale],
          dataType: 'data_driven',
          goalType: 'policy_search',
          description: template.name[locale],
        });
        const owner = { tenantId: user.tenantId, userId: user.id };
        for (let n = 1; ; n++) {
          try {
            await this.deps.datasets.adoptParquet(owner, tmp, {
              id: datasetId,
              name: numberedName(`${template.def.datasetName[locale]}`, n, 30),
              type: 'business',
              fileType: dataset.file_type,
              fileName: dataset.file_name,
              projectId: project.projectId,
            });
            break;
          } catch (err) {
            if (!isCode(err, 'tableNameUsed') || n >= NAME_TRIES) throw err;
          }
        }
        const solutionId = solution.solutionId;
        await this.deps.records.setTableCorrelation(
          user,
          {
            solutionId,
            correlation: {
              primaryTableId: datasetId,
              datasetId,
              trajectoryField: template.def.data.trajectoryField,
              sequenceField: template.def.data.sequenceField,
              datetimeField: template.def.data.datetimeField,
              relations: [],
            },
          },
          locale,
        );
        await this.deps.records.setPattern(user, { solutionId, graph: structuredClone(template.def.graphDocument) }, locale);
        const objective = await this.deps.records.createObjective(
          user,
          { solutionId, name: template.def.rewardName[locale], description: template.def.rewardDescription[locale], files: { 'reward.py': template.def.reward } },
          locale,
        );
        await this.knex('template_recognitions').where({ id: rec.id }).update({ project_id: project.projectId });
        return {
          project: await this.deps.projects.get(user, project.projectId),
          templateId: template.templateId,
          solutionId,
          datasetId,
          objectiveId: String(objective.id),
        };
      });
    } catch (err) {
      await this.deps.blobs.remove(key).catch(() => undefined);
      throw err;
    } finally {
      await fsp.rm(tmp, { force: true });
    }
  }

  /** The project row: the given name, else the template's default name numbered while taken. */
  private async createProjectRow(user: ServerCallUser, t: CatalogueTemplate, input: CreateStorehouseProjectInput, locale: Locale): Promise<ProjectItem> {
    // The project records the template's industry where it is one the project form knows.
    const industryTemplate = (INDUSTRY_TEMPLATES as readonly string[]).includes(t.type) ? (t.type as IndustryTemplate) : null;
    const fields = { colour: input.colour ?? t.def.colour, industryTemplate, info: t.name[locale], imageVersion: null };
    if (input.name) return this.deps.projects.create(user, { ...fields, name: input.name });
    for (let n = 1; ; n++) {
      try {
        return await this.deps.projects.create(user, { ...fields, name: numberedName(t.def.projectName[locale], n, 20) });
      } catch (err) {
        if (!isCode(err, 'projectNameUsed') || n >= NAME_TRIES) throw err;
      }
    }
  }
}

/**
 * Checks an accepted mapping against the template and the recognised columns: every required
 * field (optional ones when mapped) gets exactly one known column whose type can fill it, and no
 * column fills two fields.
 * @throws AppError `templateMappingInvalid` naming the first field at fault.
 */
export function checkMapping(
  template: Pick<CatalogueTemplate, 'fields'>,
  columns: readonly RecognizedColumn[],
  mapping: readonly { field: string; column: string }[],
): { field: CatalogueTemplate['fields'][number]; column: RecognizedColumn }[] {
  const fail = (field: string) => {
    throw new AppError('templateMappingInvalid', { [`mapping.${field}`]: 'validation.invalid' });
  };
  const used = new Set<string>();
  const seen = new Set<string>();
  for (const m of mapping) {
    if (!template.fields.some((f) => f.name === m.field) || seen.has(m.field)) fail(m.field);
    seen.add(m.field);
  }
  return template.fields.flatMap((field) => {
    const m = mapping.find((p) => p.field === field.name);
    if (!m) return field.required ? fail(field.name) : [];
    const column = columns.find((c) => c.name === m.column);
    if (!column || used.has(column.name) || typeScore(field, column) === 0) return fail(field.name);
    used.add(column.name);
    return [{ field, column }];
  });
}

function present(row: RecognitionRow): Recognition {
  return {
    recognitionId: row.id,
    tableId: row.dataset_id,
    tableName: row.dataset_name,
    rows: Number(row.rows),
    columns: JSON.parse(row.columns) as RecognizedColumn[],
    matches: JSON.parse(row.matches) as TemplateMatch[],
    projectId: row.project_id ?? null,
    createdAt: iso(row.created_at),
  };
}
