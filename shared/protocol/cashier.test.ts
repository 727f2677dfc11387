import { describe, expect, it } from 'vitest';
import { parseClientMessage, parseServerMessage } from './parse';

const ok = (m: object) => parseClientMessage(JSON.stringify(m));

describe('cashier and protection messages', () => {
  it('accepts the requests as the client sends them', () => {
    for (const m of [
      { type: 'register', rid: 1, username: 'zoe', password: 'zoe-password' },
      { type: 'register', rid: 1, username: 'zoe', password: 'zoe-password', identity: { lastName: 'Lefèvre', firstNames: 'Zoé', birthDate: '1990-05-04' } },
      { type: 'cashier.deposit', rid: 2, requestId: 'd-1', amount: 1000, card: '4242 4242 4242 4242' },
      { type: 'cashier.withdraw', rid: 3, requestId: 'w-1', amount: 1, card: '4242-4242-4242-4242' },
      { type: 'cashier.movements', rid: 4, before: null, limit: 50 },
      { type: 'cashier.movements', rid: 4, before: 'cercle-12', limit: 50 },
      { type: 'protection.get', rid: 5 },
      { type: 'protection.setLimit', rid: 6, limit: 'time', value: 3_600_000 },
      { type: 'protection.exclude', rid: 7, choice: { kind: 'days', days: 30 }, confirm: true },
      { type: 'protection.exclude', rid: 7, choice: { kind: 'permanent' }, confirm: true },
    ]) {
      expect(ok(m)).toMatchObject({ ok: true });
    }
  });

  it('refuses what is not one: an unconfirmed or odd exclusion, a zero limit, a negative or fractional amount, a card with letters', () => {
    for (const m of [
      { type: 'protection.exclude', rid: 7, choice: { kind: 'days', days: 30 } },
      { type: 'protection.exclude', rid: 7, choice: { kind: 'days', days: 30 }, confirm: false },
      { type: 'protection.exclude', rid: 7, choice: { kind: 'days', days: 8 }, confirm: true },
      { type: 'protection.setLimit', rid: 6, limit: 'deposit', value: 0 },
      { type: 'protection.setLimit', rid: 6, limit: 'losses', value: 10 },
      { type: 'cashier.deposit', rid: 2, requestId: 'd', amount: -1, card: '4242424242424242' },
      { type: 'cashier.deposit', rid: 2, requestId: 'd', amount: 1.5, card: '4242424242424242' },
      { type: 'cashier.deposit', rid: 2, requestId: 'd', amount: 100, card: '4242abcd42424242' },
      { type: 'cashier.movements', rid: 4, before: 'x', limit: 50 },
      { type: 'register', rid: 1, username: 'zoe', password: 'pw', identity: { lastName: 'A', firstNames: 'B', birthDate: '04/05/1990' } },
    ]) {
      expect(ok(m)).toMatchObject({ ok: false, code: 'BAD_MESSAGE', rid: m.rid });
    }
  });

  it('the operator side: payments, the protection view, warnings, refusals with details', () => {
    const payment = { paymentId: 'cercle-3', requestId: 'd3', direction: 'deposit', amount: 6000, cardLast4: '4242', provider: 'test', providerRef: 'test-deposit-cercle-3', state: 'confirmed', failure: null, createdAt: 1, updatedAt: 2 };
    for (const m of [
      { type: 'cashier.payment', rid: 1, payment, replayed: false, balances: { real: 6000, play: 0 }, withdrawable: 6000 },
      { type: 'cashier.movements', rid: 1, payments: [payment], next: null },
      {
        type: 'protection',
        rid: 1,
        protection: {
          at: 5,
          limits: { deposit: { value: 10_000, pending: { value: 50_000, from: 172_800_005 } }, stake: null, time: null },
          counters: { deposits: 6000, stakes: 0, timeUsedMs: 0, period: null },
          exclusion: { from: 5, until: null },
          closed: null,
          identified: true,
          withdrawable: 6000,
        },
      },
      { type: 'protection.warning', warning: 'near', usedMs: 1_800_000, limitMs: 3_600_000, periodEnd: 604_800_000 },
      { type: 'error', rid: 1, code: 'DEPOSIT_LIMIT', message: 'over', rule: 'R-LIMITS', details: { limit: 10_000, used: 6000, freeAt: null } },
    ]) {
      expect(parseServerMessage(JSON.stringify(m))).toMatchObject({ ok: true });
    }
    expect(parseServerMessage(JSON.stringify({ type: 'error', rid: 1, code: 'STAKE_LIMIT', message: 'x', details: { limitKind: 'losses' } }))).toMatchObject({ ok: false });
  });
});
