import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

// Packaging itself needs the network (Electron downloads) and runs in release.yml; here we check
// electron-builder.yml against electron-builder's own schema, and the settings the product relies on.
const require = createRequire(import.meta.url);
interface Target {
  target: string;
}
interface BuilderConfig {
  productName: string;
  appId: string;
  files: string[];
  asarUnpack: string[];
  electronFuses: Record<string, boolean>;
  publish: { provider: string; url: string }[];
  win: { target: Target[] };
  mac: { target: Target[] };
  linux: { target: Target[] };
}
const config = load(readFileSync('electron-builder.yml', 'utf8')) as BuilderConfig;

describe('electron-builder.yml', () => {
  it("is valid for electron-builder's schema", async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration: (c: unknown, log: unknown) => Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the product, ships only the build output and unpacks native modules', () => {
    expect(config.productName).toBe('Cercle');
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z]+)+$/);
    expect(config.files).toEqual(['out/**', 'package.json', '!**/*.map']);
    expect(config.asarUnpack).toContain('**/*.node');
  });

  it('sets the security fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('builds NSIS, dmg + zip, AppImage + deb, with one generic update feed', () => {
    const targets = (os: 'win' | 'mac' | 'linux') => config[os].target.map((t) => t.target);
    expect(targets('win')).toEqual(['nsis']);
    expect(targets('mac')).toEqual(['dmg', 'zip']);
    expect(targets('linux')).toEqual(['AppImage', 'deb']);
    expect(config.publish).toHaveLength(1);
    expect(config.publish[0]).toMatchObject({ provider: 'generic' });
    expect(config.publish[0].url).toMatch(/^https:\/\//);
  });
});
