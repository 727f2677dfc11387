import type { Linter } from 'eslint';

export declare const TYPED_RULES: Linter.RulesRecord;
export declare const UNTYPED: Linter.Config[];
