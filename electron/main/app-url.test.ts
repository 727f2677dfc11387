/**
 * The app's own URLs: `new URL('app://cercle/…').origin` is "null" in Node, so the
 * check compares protocol + host. The accepted URLs are the exact ones the app produces (the window's
 * start page, a pop-out's route, the built assets); the refused ones are the lookalikes an attacker or a
 * mistake could produce.
 */
import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, APP_START_URL, appPageUrl, appUrlCheck, appUrlPath, isAppUrl } from './app-url';

describe('app URLs', () => {
  it('the origin of an app:// URL is "null" in Node: why the check cannot compare origins', () => {
    expect(new URL(APP_START_URL).origin).toBe('null');
    expect(new URL(APP_START_URL).origin).not.toBe(APP_ORIGIN);
  });

  it.each([
    ['app://cercle/index.html', '/index.html'],
    ['app://cercle/index.html#/table/x', '/index.html'],
    ['app://cercle/index.html#/table/practice-thnl', '/index.html'],
    ['app://cercle/assets/index-Ab12.js', '/assets/index-Ab12.js'],
    ['app://cercle/assets/cards/As.svg', '/assets/cards/As.svg'],
    ['app://cercle/', '/'],
    ['app://cercle', '/'],
    // Dot segments are resolved by the parser (Chromium does the same before the handler sees them).
    ['app://cercle/../../package.json', '/package.json'],
    ['app://cercle/%2e%2e/%2e%2e/package.json', '/package.json'],
  ])('accepts %s (path %s)', (url, path) => {
    expect(isAppUrl(url)).toBe(true);
    expect(appUrlPath(url)).toBe(path);
  });

  it.each([
    'app://other/',
    'app://other/index.html',
    'https://cercle/',
    'https://cercle/index.html',
    'http://cercle/index.html',
    'file:///index.html',
    'file:///C:/Cercle/resources/app.asar/out/renderer/index.html',
    'about:blank',
    'data:text/html,<script>alert(1)</script>',
    'javascript:alert(1)',
    'app://cercle.evil/',
    'app://cercle.evil/index.html',
    'app://evil.cercle/',
    'app://user@cercle/',
    'app://user:pass@cercle/index.html',
    'app://cercle:80/index.html',
    'app://CERCLE/index.html',
    'app://Cercle/',
    'app://%63ercle/',
    'app:cercle/index.html',
    'app:/cercle/index.html',
    'app:///cercle/index.html',
    'app://cercle\\evil/',
    'blob:app://cercle/1234',
    'not a url',
    '',
  ])('refuses %s', (url) => {
    expect(isAppUrl(url)).toBe(false);
    expect(appUrlPath(url)).toBeNull();
  });

  it('a pop-out is the start page on its table route, and is one of ours', () => {
    const url = appPageUrl(APP_START_URL, `/table/${encodeURIComponent('practice-thnl')}`);
    expect(url).toBe('app://cercle/index.html#/table/practice-thnl');
    expect(isAppUrl(url)).toBe(true);
    expect(appPageUrl(APP_START_URL)).toBe(APP_START_URL);
  });

  describe('with the development server (only when not packaged)', () => {
    const check = appUrlCheck('http://localhost:5173');
    it('accepts the app and the dev server, on protocol + host + port', () => {
      expect(check('app://cercle/index.html')).toBe(true);
      expect(check('http://localhost:5173/')).toBe(true);
      expect(check('http://localhost:5173/#/table/x')).toBe(true);
    });
    it.each(['http://localhost:5174/', 'https://localhost:5173/', 'http://localhost/', 'http://user@localhost:5173/', 'http://localhost.evil:5173/', 'app://other/'])(
      'refuses %s',
      (url) => expect(check(url)).toBe(false),
    );
    it('without a dev server (packaged, or not set) only the app is ours', () => {
      expect(appUrlCheck(undefined)('http://localhost:5173/')).toBe(false);
      expect(appUrlCheck('')('app://cercle/index.html')).toBe(true);
      expect(appUrlCheck('not a url')('not a url')).toBe(false);
    });
  });
});
