// What main asks of the desktop: shell, dialog, safeStorage; and what electron-updater loads but
// our code leaves unused.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { config } from './base';

// shell, dialog

export const opened: string[] = [];
export const shell = {
  // electronjs.org/docs/latest/api/shell#shellopenexternalurl-options: "Open the given external protocol URL
  // in the desktop's default manner." Returns Promise<void>. fake: recorded, nothing opens.
  async openExternal(url: string): Promise<void> {
    opened.push(url);
  },
};

export const errorBoxes: { title: string; content: string }[] = [];
export const dialog = {
  // electronjs.org/docs/latest/api/dialog#dialogshowerrorboxtitle-content: "Displays a modal dialog that shows
  // an error message. This API can be called safely before the ready event the app module emits ... If
  // called before the app ready event on Linux, the message will be emitted to stderr, and no GUI dialog
  // will appear." fake: recorded, and written to stderr as on Linux before ready.
  showErrorBox(title: string, content: string): void {
    errorBoxes.push({ title, content });
    process.stderr.write(`[dialog.showErrorBox] ${title}: ${content}\n`);
  },
};

// ---------------------------------------------------------------------------------------------
// safeStorage

/** fake: the key of "the OS store": one per keyring name, the same in every process (as a user's login keyring is). */
function storageKey(): Buffer {
  return createHash('sha256').update(`cercle fake keyring:${config.safeStorage?.keyring ?? 'login'}`).digest();
}
export const safeStorage = {
  // electronjs.org/docs/latest/api/safe-storage#safestorageisencryptionavailable: "Returns boolean - Whether
  // encryption is available. On Linux, returns true if the app has emitted the ready event and the secret
  // key is available." fake: as the test configures it.
  isEncryptionAvailable(): boolean {
    return config.safeStorage?.available ?? true;
  },
  // electronjs.org/docs/latest/api/safe-storage#safestoragegetselectedstoragebackend-linux: "Returns string -
  // User friendly name of the password manager selected on Linux. This function will return one of the
  // following values: basic_text - When the desktop environment is not recognised or if the following
  // command line flag is provided --password-store="basic". gnome_libsecret ... kwallet ..."
  getSelectedStorageBackend(): string {
    return config.safeStorage?.backend ?? 'gnome_libsecret';
  },
  // electronjs.org/docs/latest/api/safe-storage#safestorageencryptstringplaintext: "Returns Buffer - An array
  // of bytes representing the encrypted string. This function will throw an error if encryption fails."
  // fake: AES-256-GCM under the keyring's key (another keyring: old files do not decrypt).
  encryptString(plainText: string): Buffer {
    if (!safeStorage.isEncryptionAvailable()) throw new Error('Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.');
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', storageKey(), iv);
    const body = Buffer.concat([c.update(plainText, 'utf8'), c.final()]);
    return Buffer.concat([Buffer.from('v10'), iv, c.getAuthTag(), body]);
  },
  // electronjs.org/docs/latest/api/safe-storage#safestoragedecryptstringencrypted: "Returns string - the
  // decrypted string. Decrypts the encrypted buffer obtained with safeStorage.encryptString back into a
  // string. This function will throw an error if decryption fails."
  decryptString(encrypted: Buffer): string {
    if (!safeStorage.isEncryptionAvailable()) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.');
    if (encrypted.length < 31 || encrypted.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    const d = createDecipheriv('aes-256-gcm', storageKey(), encrypted.subarray(3, 15));
    d.setAuthTag(encrypted.subarray(15, 31));
    return Buffer.concat([d.update(encrypted.subarray(31)), d.final()]).toString('utf8');
  },
};

// ---------------------------------------------------------------------------------------------
// Loaded but unused by our code: electron-updater reads these only when packaged (autoUpdater.quitAndInstall,
// notifications, net requests). fake: present so that loading the bundle works; using them is a test error.

function notFaked(what: string): never {
  throw new Error(`fake electron: ${what} is not faked (it is not used while the app is not packaged)`);
}
export const autoUpdater = new EventEmitter();
export class Notification {
  constructor() {
    notFaked('Notification');
  }
}
export const net = {
  request: (): never => notFaked('net.request'),
};
