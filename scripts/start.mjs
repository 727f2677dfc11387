// `npm start` (after the build): starts the desktop client in Electron; where the Electron binary is
// missing and cannot be fetched (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1, as on CI machines),
// says so in one line and starts the browser host instead, which prints the URL to open.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// The electron package resolves its binary's path on require, downloading it on first use. Ask in a
// child process so a failed download's noise stays out of the player's terminal.
function findElectron() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return null;
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], { encoding: 'utf8', timeout: 300_000 });
  const path = probe.status === 0 ? probe.stdout.trim() : '';
  return path && existsSync(path) ? path : null;
}

const electronBinary = findElectron();
const extra = process.argv.slice(2);
let child;
if (electronBinary) {
  child = spawn(electronBinary, ['.', ...extra], { stdio: 'inherit' });
} else {
  console.log('Electron binary not available here: starting the browser host instead (open the URL below in a browser).');
  child = spawn(process.execPath, ['out/main/webhost.cjs', ...extra], { stdio: 'inherit' });
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
