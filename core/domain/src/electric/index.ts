import { z } from 'zod';

/**
 * The public electric demo (`electricShow/*`, pages `/electric/...`): a visitor without an account
 * tries the electric template's cold-room model. Two demonstration rooms, `330` and `600`, show
 * trajectories of the template's own data (rooms 3 and 6 of its 20); a decision for an
 * over-temperature state is answered by a dynamics model the server fits to that data and a
 * one-step lookahead on the template's reward, then checked in the template's true simulator.
 */
export const ELECTRIC_SITES = ['330', '600'] as const;
export type ElectricSite = (typeof ELECTRIC_SITES)[number];

/** Limits of a decision's state (the template graph's temperature range, °C). */
export const ELECTRIC_TEMPERATURE_MIN = -20;
export const ELECTRIC_TEMPERATURE_MAX = 20;

const siteSchema = z.enum(ELECTRIC_SITES, { error: 'validation.invalid' });

/** `electricShow/getPumpControlList` and `getTemperatureControlList`: one room's logged series. */
export const electricListSchema = z.object({ site: siteSchema });
export type ElectricListRequest = z.input<typeof electricListSchema>;

/** `electricShow/decisionSuperTemperature`: the room's current temperature and door state. */
export const electricDecisionSchema = z.object({
  site: siteSchema,
  temperature: z.number({ error: 'validation.invalid' }).finite().min(ELECTRIC_TEMPERATURE_MIN, { error: 'validation.invalid' }).max(ELECTRIC_TEMPERATURE_MAX, { error: 'validation.invalid' }),
  doorOpen: z.boolean({ error: 'validation.invalid' }),
});
export type ElectricDecisionRequest = z.input<typeof electricDecisionSchema>;

/** `electricShow/getSuperTemperatureResult`: a decision's id. */
export const electricResultSchema = z.object({ decisionId: z.string({ error: 'validation.invalid' }).regex(/^[0-9a-f]{32}$/, { error: 'validation.invalid' }) });
export type ElectricResultRequest = z.input<typeof electricResultSchema>;

/** One logged step of a demonstration room (the template's data). */
export interface ElectricPumpRow {
  step: number;
  time: string;
  /** Cooling (pump) power, 0–10. */
  power: number;
}
export interface ElectricTemperatureRow {
  step: number;
  time: string;
  /** Room temperature, °C. */
  temperature: number;
  doorOpen: boolean;
}
export interface ElectricSeries<Row> {
  site: ElectricSite;
  /** The template room the series comes from (1-based). */
  room: number;
  rows: Row[];
}

/** What answered: the fitted model and how well it fits the template's data. */
export interface ElectricModelInfo {
  kind: 'least-squares-dynamics+lookahead';
  /** Fitted `next = c0 + c1·t + c2·door + c3·door·t + c4·power`. */
  coefficients: number[];
  /** Mean absolute error of the fit on the template's held-out rooms, °C. */
  heldOutMae: number;
  trainingRows: number;
}

/** Outcome of a controller over the same simulated episodes (true simulator of the template). */
export interface ElectricEpisodeScore {
  /** Mean return per episode (the template's reward). */
  meanReturn: number;
  /** Mean |temperature − (−2 °C)| over the steps. */
  meanDeviation: number;
  /** Mean cooling power. */
  meanPower: number;
}

/** `decisionSuperTemperature` answers the decision; `getSuperTemperatureResult` adds the charts. */
export interface ElectricDecision {
  decisionId: string;
  site: ElectricSite;
  temperature: number;
  doorOpen: boolean;
  /** Decided cooling power, 0–10. */
  power: number;
  /** The model's predicted next temperature under that power. */
  predictedNext: number;
  model: ElectricModelInfo;
  createdAt: string;
}

export interface ElectricResult extends ElectricDecision {
  /** The model's forecast from the given state, door closed after the first step. */
  forecast: { step: number; temperature: number; power: number }[];
  /** The lookahead controller and the template's logged controller in the true simulator, same seeds. */
  comparison: { episodes: number; steps: number; model: ElectricEpisodeScore; logged: ElectricEpisodeScore };
}
