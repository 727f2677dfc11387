import { defineStore } from 'pinia';
import { ref } from 'vue';
import { DEFAULT_SETTINGS, type Language, type Settings, type SettingsPatch } from '../../../shared/api';
import { useApi } from '../useApi';
import { setLocale } from '../i18n';

/** The player's settings, owned by main (a validated file in the data folder) and mirrored here. */
export const useSettingsStore = defineStore('settings', () => {
  const api = useApi();
  const settings = ref<Settings>({ ...DEFAULT_SETTINGS });
  const error = ref<string | null>(null);

  function applied(s: Settings): void {
    settings.value = s;
    setLocale(s.language);
  }

  async function refresh(): Promise<void> {
    applied(await api.getSettings({}));
  }

  async function load(): Promise<void> {
    await refresh();
    api.on('settingsChanged', applied);
  }

  async function setLanguage(language: Language): Promise<void> {
    try {
      applied(await api.updateSettings({ language }));
      error.value = null;
    } catch (e) {
      error.value = (e as Error).message;
    }
  }

  async function update(patch: SettingsPatch): Promise<boolean> {
    try {
      applied(await api.updateSettings(patch));
      error.value = null;
      return true;
    } catch (e) {
      error.value = (e as Error).message;
      return false;
    }
  }

  return { settings, error, load, refresh, setLanguage, update };
});
