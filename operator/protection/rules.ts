/**
 * The requirement each cashier or protection refusal applies (SPEC §2b): one map for every place that
 * turns such a refusal into what the player is told (the connection's `error` frames, the tables' and
 * tournaments' reading of the wallet's refusals, tables/cash.ts).
 */
export const PROTECTION_RULES: Readonly<Partial<Record<string, string>>> = {
  INVALID_IDENTITY: 'R-AGE',
  UNDER_AGE: 'R-AGE',
  BANNED: 'R-BANNED',
  IDENTITY_TAKEN: 'R-ONEACCOUNT',
  ACCOUNT_CLOSED: 'R-BANNED',
  IDENTITY_REQUIRED: 'R-AGE',
  SELF_EXCLUDED: 'R-EXCLUDE',
  EXCLUSION_TOO_SHORT: 'R-EXCLUDE',
  EXCLUSION_CANNOT_SHORTEN: 'R-EXCLUDE',
  DEPOSIT_LIMIT: 'R-LIMITS',
  STAKE_LIMIT: 'R-LIMITS',
  TIME_LIMIT_REACHED: 'R-TIMELIMIT',
  MONEY_AT_TABLE: 'R-CASHIER',
  FUNDS_RESERVED: 'R-CASHIER',
  INSUFFICIENT_FUNDS: 'R-CASHIER',
};
