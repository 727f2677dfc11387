// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import { importFence } from './scripts/eslint/import-fence.mjs';
import { shapeConfig } from './scripts/eslint/shape.mjs';
import { TYPED_RULES } from './scripts/eslint/typed.mjs';

// Globals that exist in both browsers and Node (WinterCG): pure shared/ code may use these.
const UNIVERSAL = new Set([
  'console', 'TextEncoder', 'TextDecoder', 'URL', 'URLSearchParams', 'queueMicrotask', 'structuredClone',
  'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'crypto', 'performance', 'atob', 'btoa',
  'AbortController', 'AbortSignal', 'Event', 'EventTarget',
]);
const es = new Set(Object.keys(globals.es2021));
// DESIGN.md §2: shared/ uses no DOM-only and no Node-only globals.
const FORBIDDEN_IN_SHARED = [
  ...new Set([...Object.keys(globals.browser), ...Object.keys(globals.node)].filter((g) => !es.has(g) && !UNIVERSAL.has(g))),
].map((name) => ({ name, message: 'shared/ is pure: no DOM or Node globals (DESIGN.md §2).' }));

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'out/**', 'dist/**', 'release/**', 'test-results/**', 'playwright-report/**', 'tests/fixtures/**', 'tests/artifacts/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
  },
  {
    plugins: { cercle: { rules: { 'import-fence': importFence } } },
    rules: {
      'cercle/import-fence': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='describe'][callee.property.name='only']", message: 'no focused tests' },
        { selector: "CallExpression[callee.object.name='it'][callee.property.name='only']", message: 'no focused tests' },
        { selector: "CallExpression[callee.object.name='test'][callee.property.name='only']", message: 'no focused tests' },
      ],
      // Formatting is left to the author; lint is for problems.
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
    },
  },
  {
    files: ['electron/**/*.ts', 'operator/**/*.ts', 'shared/node/**/*.ts', 'tests/**/*.ts', 'tests/**/*.mjs', 'scripts/**/*.mjs', '*.config.ts', '*.config.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['renderer/**/*.{ts,vue}'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts', 'shared/node/**'],
    rules: { 'no-restricted-globals': ['error', ...FORBIDDEN_IN_SHARED] },
  },
  // Rules that need the types (scripts/eslint/typed.mjs).
  {
    files: ['**/*.ts'],
    ignores: ['renderer/**'],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: TYPED_RULES,
  },
  {
    files: ['renderer/**/*.{ts,vue}'],
    // The renderer's tests are outside tsconfig.web.json (they run in Node under Vitest).
    ignores: ['renderer/**/*.test.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.web.json', tsconfigRootDir: import.meta.dirname, extraFileExtensions: ['.vue'] } },
    rules: TYPED_RULES,
  },
  // The shape of the code: file and function sizes, complexity, and the named exceptions (scripts/eslint/shape.mjs).
  ...shapeConfig(),
);
