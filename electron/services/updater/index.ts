/**
 * The updater service: what electron/main and the browser host import. The Electron side passes
 * electron-updater's `autoUpdater` in (main imports it), so nothing here loads `electron`.
 */
import type { AppUpdater, Logger } from 'electron-updater';
import { type UpdateControl, type UpdaterEngine, UpdateService, type UpdateServiceOptions } from './updater';

export * from './updater';
export * from './wiring';

export interface ElectronUpdaterOptions extends Omit<UpdateServiceOptions, 'engine'> {
  /** electron-updater's own log (console by default); null silences it. */
  logger?: Logger | null;
}

/**
 * The update service over electron-updater's `autoUpdater`. The feed is the generic provider of
 * electron-builder.yml, which electron-builder writes into the package's app-update.yml; every file is
 * checked against the sha512 of latest.yml before it counts as downloaded.
 */
export function createElectronUpdater(autoUpdater: AppUpdater, options: ElectronUpdaterOptions = {}): UpdateControl {
  // Only full installers are published (no NSIS web installer): refuse a feed that offers one, since its
  // separate package would be fetched by a path the installer check does not cover.
  autoUpdater.disableWebInstaller = true;
  if (options.logger !== undefined) autoUpdater.logger = options.logger;
  // Compile-time proof that electron-updater's AppUpdater is the engine this service expects.
  const engine: UpdaterEngine = autoUpdater;
  const { logger: _logger, ...rest } = options;
  return new UpdateService({ ...rest, engine });
}
