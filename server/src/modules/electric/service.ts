/**
 * The public electric demo (`electricShow/*`): the demonstration rooms' logged series from the
 * electric template's data, and decisions of the {@link ColdRoomModel} for a visitor's
 * over-temperature state. No account: every call counts against the caller's address
 * ({@link ELECTRIC_CALLS_PER_WINDOW} per {@link ELECTRIC_WINDOW_MS}); nothing private is kept
 * with a decision (the address stays only in the call counter, for the window).
 */
import { AppError, type ElectricDecision, type ElectricPumpRow, type ElectricResult, type ElectricSeries, type ElectricSite, type ElectricTemperatureRow } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { RateWindow } from '../../http/rate-window';
import { newId } from '../../db/ids';
import type { TemplateRegistry } from '../templates/registry';
import { ColdRoomModel, coldRoomData, type ColdRoomData } from './model';

/** Id of the template whose data the demo shows (contributed by `plugins/template-electric`). */
export const ELECTRIC_TEMPLATE_ID = 'electric';

export const ELECTRIC_WINDOW_MS = 60_000;
export const ELECTRIC_CALLS_PER_WINDOW = 30;
/** The template room (1-based) behind each demonstration room. */
export const ELECTRIC_SITE_ROOM: Record<ElectricSite, number> = { '330': 3, '600': 6 };

interface RoomStep {
  step: number;
  time: string;
  temperature: number;
  doorOpen: boolean;
  power: number;
}

interface DecisionRow {
  id: string;
  site: string;
  temperature: number | string;
  door_open: number | boolean;
  power: number | string;
  predicted_next: number | string;
  result: string;
  created_at: Date | string;
}

export class ElectricService {
  private model: ColdRoomModel | undefined;
  private comparison: ElectricResult['comparison'] | undefined;
  private rooms = new Map<ElectricSite, RoomStep[]>();
  private data: ColdRoomData | undefined;
  private calls: RateWindow | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly templates: TemplateRegistry,
  ) {}

  /**
   * The electric template's data (read once).
   * @throws AppError `notFound` when no plugin contributes the electric template.
   */
  private async coldRooms(): Promise<ColdRoomData> {
    if (!this.data) {
      if (!this.templates.get(ELECTRIC_TEMPLATE_ID)) throw new AppError('notFound');
      this.data = coldRoomData((await this.templates.dataOf(ELECTRIC_TEMPLATE_ID)).table);
    }
    return this.data;
  }

  private get knex() {
    return this.db.executor();
  }

  /**
   * Counts a call of `address` (the shared database-backed window, bucket `electric-show`).
   * @throws AppError `tooManyRequests` past {@link ELECTRIC_CALLS_PER_WINDOW} calls in {@link ELECTRIC_WINDOW_MS}.
   */
  async admit(address: string): Promise<void> {
    this.calls ??= new RateWindow(this.db, this.clock, { bucket: 'electric-show', max: ELECTRIC_CALLS_PER_WINDOW, windowMs: ELECTRIC_WINDOW_MS });
    await this.calls.hit(address.slice(0, 64));
  }

  /** The demonstration room's 200 logged quarter-hours (template data; computed once). */
  private async room(site: ElectricSite): Promise<RoomStep[]> {
    let steps = this.rooms.get(site);
    if (!steps) {
      const data = await this.coldRooms();
      const room = ELECTRIC_SITE_ROOM[site];
      steps = [];
      for (let r = 0; r < data.room.length; r++) {
        if (data.room[r] !== room) continue;
        steps.push({ step: data.step[r]!, time: data.time[r]!, temperature: data.temperature[r]!, doorOpen: data.doorOpen[r]! > 0.5, power: data.power[r]! });
      }
      this.rooms.set(site, steps);
    }
    return steps;
  }

  async pumpControlList(site: ElectricSite): Promise<ElectricSeries<ElectricPumpRow>> {
    return { site, room: ELECTRIC_SITE_ROOM[site], rows: (await this.room(site)).map(({ step, time, power }) => ({ step, time, power })) };
  }

  async temperatureControlList(site: ElectricSite): Promise<ElectricSeries<ElectricTemperatureRow>> {
    return { site, room: ELECTRIC_SITE_ROOM[site], rows: (await this.room(site)).map(({ step, time, temperature, doorOpen }) => ({ step, time, temperature, doorOpen })) };
  }

  private async fitted(): Promise<ColdRoomModel> {
    this.model ??= ColdRoomModel.fit(await this.coldRooms());
    return this.model;
  }

  /** Decides the cooling power for the state, keeps the decision and its result, answers the decision. */
  async decide(input: { site: ElectricSite; temperature: number; doorOpen: boolean }): Promise<ElectricDecision> {
    const model = await this.fitted();
    this.comparison ??= model.compare();
    const { power, predictedNext } = model.decide(input.temperature, input.doorOpen);
    const id = newId();
    const createdAt = this.clock.now();
    const decision: ElectricDecision = { decisionId: id, site: input.site, temperature: input.temperature, doorOpen: input.doorOpen, power, predictedNext, model: model.info(), createdAt: createdAt.toISOString() };
    const result: ElectricResult = { ...decision, forecast: model.forecast(input.temperature, input.doorOpen), comparison: this.comparison };
    await this.knex('electric_decisions').insert({
      id,
      site: input.site,
      temperature: input.temperature,
      door_open: input.doorOpen,
      power,
      predicted_next: predictedNext,
      result: JSON.stringify(result),
      created_at: createdAt,
    });
    return decision;
  }

  /**
   * A decision with its forecast and the simulator comparison.
   * @throws AppError `notFound` for an unknown id.
   */
  async result(decisionId: string): Promise<ElectricResult> {
    const row = (await this.knex('electric_decisions').where({ id: decisionId }).first()) as DecisionRow | undefined;
    if (!row) throw new AppError('notFound');
    return JSON.parse(row.result) as ElectricResult;
  }
}
