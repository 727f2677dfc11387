// @ts-check
/**
 * Rules that need the types: a promise nobody awaits or catches loses its error (and, at a table, the
 * player's action with it); an assertion the type already satisfies hides the day it stops being true.
 */
export const TYPED_RULES = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
  '@typescript-eslint/no-unnecessary-type-assertion': 'error',
};

/**
 * For linting text that is in no project (tests of the lint rules lint made-up files such as
 * `shared/rules/bad.ts`): the same configuration without the types.
 */
export const UNTYPED = [
  {
    files: ['**/*.{ts,vue}'],
    languageOptions: { parserOptions: { project: null } },
    rules: Object.fromEntries(Object.keys(TYPED_RULES).map((r) => [r, 'off'])),
  },
];
