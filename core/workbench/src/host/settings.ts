/**
 * Settings contributed by plugins: values validated by their zod schemas and kept per user in
 * local storage as a versioned document.
 */
import { Emitter, validateSetting, type SettingContribution, type SettingsService } from '@decisio/sdk-plugin';

/** Version of the stored settings document. */
export const SETTINGS_SCHEMA_VERSION = 1;

/** Local-storage key of a user's settings. */
export function settingsStorageKey(userId: string | null): string {
  return `decisio.settings.${userId ?? 'anonymous'}`;
}

/** {@link SettingsService} over local storage. Invalid stored values fall back to defaults. */
export class SettingsServiceImpl implements SettingsService {
  private readonly didChange = new Emitter<{ id: string; value: unknown }>();
  readonly onDidChangeSetting = this.didChange.event;

  constructor(
    private readonly list: () => readonly SettingContribution[],
    private readonly userId: () => string | null,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage,
  ) {}

  /** The contributions (for the generated settings form). */
  get all(): readonly SettingContribution[] {
    return this.list();
  }

  private read(): Record<string, unknown> {
    try {
      const doc = JSON.parse(this.storage.getItem(settingsStorageKey(this.userId())) ?? 'null') as {
        schemaVersion?: number;
        values?: Record<string, unknown>;
      } | null;
      return doc?.schemaVersion === SETTINGS_SCHEMA_VERSION && doc.values ? doc.values : {};
    } catch {
      return {};
    }
  }

  private contribution(id: string): SettingContribution {
    const c = this.list().find((x) => x.id === id);
    if (!c) throw new Error(`unknown setting "${id}"`);
    return c;
  }

  get<T = unknown>(id: string): T {
    const c = this.contribution(id);
    const stored = this.read()[id];
    if (stored === undefined) return c.default as T;
    const r = validateSetting(c, stored);
    return (r.ok ? r.value : c.default) as T;
  }

  set(id: string, value: unknown): void {
    const c = this.contribution(id);
    const r = validateSetting(c, value);
    if (!r.ok) throw new Error(`setting "${id}": ${r.message}`);
    const parsed = r.value;
    const values = { ...this.read(), [id]: parsed };
    this.storage.setItem(settingsStorageKey(this.userId()), JSON.stringify({ schemaVersion: SETTINGS_SCHEMA_VERSION, values }));
    this.didChange.fire({ id, value: parsed });
  }
}
