// The updater's messages (en); mirrors update.fr.ts key for key.
import type fr from './update.fr';

const en: typeof fr = {
  label: 'Cercle update',
  available: 'Version {version} available: downloading…',
  downloading: 'Downloading version {version}: {percent}%',
  downloaded: 'Version {version} is ready: it will be installed at the next restart.',
  restartNow: 'Restart now',
  installing: 'Restarting…',
  installRefused: 'Cannot install now: the update will be installed at the next restart.',
  error: 'The update failed.',
  retry: 'Try again',
};

export default en;
