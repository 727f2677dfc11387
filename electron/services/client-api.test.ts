import { describe, expect, it } from 'vitest';
import { isAllowedExternalUrl } from './client-api';

describe('isAllowedExternalUrl', () => {
  it('allows the help line and the regulator over https only', () => {
    expect(isAllowedExternalUrl('https://www.joueurs-info-service.fr/')).toBe(true);
    expect(isAllowedExternalUrl('https://anj.fr/jeu-responsable')).toBe(true);
    expect(isAllowedExternalUrl('http://www.joueurs-info-service.fr/')).toBe(false);
  });
  it('refuses look-alike hosts, credentials, ports and other schemes', () => {
    for (const u of [
      'https://anj.fr.evil.example/',
      'https://evil.example/?anj.fr',
      'https://user:pw@anj.fr/',
      'https://anj.fr:8443/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
    ]) expect(isAllowedExternalUrl(u)).toBe(false);
  });
});
