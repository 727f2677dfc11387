import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { writeFileAtomic } from '../../shared/node/atomic-file';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, type Settings, type SettingsPatch, settingsSchema } from '../../shared/api';
import { validate } from '../../shared/validate';

/**
 * The player's settings: a validated JSON file in the data folder. Writes are atomic (temp file then
 * rename), so a crash never leaves half a file. A file that does not validate is kept aside as
 * `settings.json.corrupt-<time>` (nothing is lost) and the defaults are used, with the reason reported.
 */
export class SettingsStore {
  readonly file: string;
  private current: Settings;
  /** Why the stored file was set aside on load, if it was. */
  readonly loadProblem: string | null;
  private readonly listeners = new Set<(s: Settings) => void>();

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.file = join(dataDir, 'settings.json');
    const loaded = this.load();
    this.current = loaded.settings;
    this.loadProblem = loaded.problem;
  }

  get(): Settings {
    return { ...this.current };
  }

  update(patch: SettingsPatch): Settings {
    const next = { ...this.current, ...patch };
    const checked = validate(settingsSchema, next, 'settings');
    if (!checked.ok) throw new Error(checked.error);
    this.write(checked.value);
    this.current = checked.value;
    for (const l of this.listeners) l(this.get());
    return this.get();
  }

  onChange(listener: (s: Settings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private load(): { settings: Settings; problem: string | null } {
    if (!existsSync(this.file)) return { settings: { ...DEFAULT_SETTINGS }, problem: null };
    const text = readFileSync(this.file, 'utf8');
    let problem: string;
    try {
      // Older files may lack newer keys: fill them from the defaults before validating.
      const parsed: unknown = JSON.parse(text);
      const merged = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...DEFAULT_SETTINGS, ...parsed } : parsed;
      const checked = validate(settingsSchema, merged, 'settings');
      if (checked.ok) return { settings: checked.value, problem: null };
      problem = checked.error;
    } catch (e) {
      problem = `settings.json is not JSON: ${(e as Error).message}`;
    }
    renameSync(this.file, `${this.file}.corrupt-${Date.now()}`);
    return { settings: { ...DEFAULT_SETTINGS }, problem };
  }

  private write(s: Settings): void {
    // Whole or not at all (shared/node/atomic-file.ts).
    writeFileAtomic(this.file, `${JSON.stringify(s, null, 2)}\n`, { mode: 0o600 });
  }
}
