import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The folder where Cercle keeps its settings and hand history when no folder is given: the same place
 * Electron's `app.getPath('userData')` names for the product "Cercle", so the desktop app and the
 * browser host share one set of data.
 */
export function defaultDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Cercle');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Cercle');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Cercle');
}
