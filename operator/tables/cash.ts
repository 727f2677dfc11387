/**
 * The hooks of a cash-game table (R-CASH): money through the wallet's ledger (buy-in, top-up,
 * cash-out, rake; R-NODEBT, R-RAKE), and the trace into the vault: POINSCRIT on joining, POACHAT on a
 * top-up, POJEU per hand, POBILAN on leaving, with the wallet's balance before / movement / after
 * (A 1.3.6.c). Play-money tables write their records flagged `test` (they are not real-money gaming),
 * with amounts in chips (scale 0).
 */
import { hashJoueur, type Movement } from '../trace/records';
import type { TraceVault } from '../trace/vault';
import { walletMovement, type Wallet } from '../wallet';
import { describeTable } from './pojeu';
import type { MoneyResult, TableHooks, TableMoney, TablePlayer, TableSpec, TableTrace } from './types';

function moneyResult(r: ReturnType<Wallet['buyIn']>): MoneyResult {
  if (r.ok) return { ok: true, movement: walletMovement(r.entry)! };
  switch (r.code) {
    case 'INSUFFICIENT_FUNDS':
      return { ok: false, code: 'INSUFFICIENT_FUNDS', message: r.message, rule: 'R-NODEBT' };
    case 'GUEST_REAL_MONEY':
      return { ok: false, code: 'REAL_MONEY_FORBIDDEN', message: r.message };
    default:
      return { ok: false, code: 'INTERNAL', message: `${r.code}: ${r.message}` };
  }
}

export function walletMoney(wallet: Wallet, spec: TableSpec): TableMoney {
  const opened = wallet.openTable(spec.tableId, spec.money);
  if (!opened.ok) throw new Error(`${spec.tableId}: ${opened.code}: ${opened.message}`);
  return {
    buyIn: (p, amount, key) => moneyResult(wallet.buyIn(p.accountId, spec.tableId, amount, { idempotencyKey: key })),
    topUp: (p, amount, key) => moneyResult(wallet.topUp(p.accountId, spec.tableId, amount, { idempotencyKey: key })),
    cashOut(p, amount, key) {
      if (amount === 0) {
        // A player who lost everything still gets a POBILAN, with a zero movement (A 1.3.6.c.3).
        const balance = wallet.balance(p.accountId, spec.money);
        return { ok: true, movement: { avant: balance, mouvement: 0, apres: balance } };
      }
      return moneyResult(wallet.cashOut(p.accountId, spec.tableId, amount, { idempotencyKey: key }));
    },
    rake(handId, amount) {
      const r = wallet.collectRake(spec.tableId, amount, { idempotencyKey: `rake:${handId}`, handId });
      if (!r.ok) throw new Error(`${spec.tableId}: rake of ${handId} refused: ${r.code}: ${r.message}`);
    },
  };
}

export function vaultTrace(vault: TraceVault, spec: TableSpec): TableTrace {
  const scale = spec.money === 'real' ? 2 : 0;
  const test = spec.money === 'play';
  const description = `${spec.name}: ${describeTable(spec.rules, spec.money)}`;
  const base = (p: TablePlayer, inscription: string, movement: Movement) => ({
    idJoueur: String(p.accountId),
    hashJoueur: hashJoueur(`${p.accountId}:${p.name}`),
    ipJoueur: p.ip,
    idSession: p.sessionId,
    inscription,
    tech: spec.tableId,
    solde: movement,
    scale: scale as 0 | 2,
    ...(test ? { test: true } : {}),
  });
  return {
    joined: (p, inscription, movement) => void vault.append({ kind: 'POINSCRIT', ...base(p, inscription, movement), description, format: 'CG' }),
    purchased: (p, inscription, movement) => void vault.append({ kind: 'POACHAT', ...base(p, inscription, movement), description: `Recave: ${description}` }),
    hand: (data) => void vault.append(data),
    left: (p, inscription, movement) => void vault.append({ kind: 'POBILAN', ...base(p, inscription, movement) }),
  };
}

/** The hooks of a cash table over the wallet and the vault; fixed rules (no blind levels). */
export function cashTableHooks(
  spec: TableSpec,
  deps: { wallet: Wallet; vault: TraceVault; history?: TableHooks['history']; error: (e: unknown) => void; changed?: () => void },
): TableHooks {
  return {
    money: walletMoney(deps.wallet, spec),
    trace: vaultTrace(deps.vault, spec),
    rulesForNextHand: () => spec.rules,
    history: deps.history,
    changed: deps.changed,
    error: deps.error,
  };
}
