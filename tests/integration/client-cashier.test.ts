/**
 * The client's cashier and protection calls (electron/services/client/cashier.ts) against
 * a real operator on loopback (real TLS, real SQLite, the network-free test payment provider): a
 * registration with the holder's identity (an under-18 date refused with its rule), each refusal reaching
 * the client API with its code, rule and details (the limit, what is used, when room frees up), a deposit
 * with the test card confirmed and listed, the limits and self-exclusion, and the operator's playing-time
 * warning pushed as the `protectionWarning` event.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ClientCashier } from '../../electron/services/client/cashier';
import { OperatorLink } from '../../electron/services/link';
import type { EventName } from '../../shared/api';
import { calls, events } from '../../shared/api';
import { type Schema, validate } from '../../shared/validate';
import { PLAY_TABLE, testOperator } from './operator-harness';
import { dateInFrance } from '../../operator/protection/identity';

const links: OperatorLink[] = [];
afterEach(async () => {
  for (const l of links.splice(0)) await l.close();
});

/**
 * A birth date `yearsAgo` before today in France, where the operator reckons the age (R-AGE,
 * identity.ts `dateInFrance`): from UTC's date it was a day off between midnight in Paris and in UTC
 * (a CI run at 23:14 UTC made "one day short of 18" exactly 18).
 */
function birthDate(yearsAgo: number, days = 0): string {
  const today = dateInFrance(Date.now());
  const d = new Date(Date.UTC(today.y, today.m - 1, today.d));
  d.setUTCFullYear(d.getUTCFullYear() - yearsAgo);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

describe('the client cashier over a real operator', () => {
  it('registers with an identity, carries refusals with their details, deposits, lists, limits, excludes, and turns warnings into events', async () => {
    const op = await testOperator('0181', [PLAY_TABLE]);
    const link = new OperatorLink({ url: op.url, pins: [op.pin], clientVersion: '0.1.0', log: () => undefined });
    links.push(link);
    await link.connect();
    const pushed: { event: EventName; payload: unknown }[] = [];
    let moved = 0;
    const cashier = new ClientCashier({ link: () => link, broadcast: (event, payload) => void pushed.push({ event, payload }), balancesMoved: () => void moved++ });
    cashier.attach(link);
    const result = <K extends keyof typeof calls>(name: K, v: unknown): void => {
      const ok = validate(calls[name].result as Schema<unknown>, v, name);
      expect(ok.ok, ok.ok ? '' : ok.error).toBe(true);
    };

    // R-AGE: one day short of 18 is refused with its rule; then the account is opened.
    const young = await link.register('camille_d', 'un mot de passe assez long 42', { lastName: 'Dupont', firstNames: 'Camille', birthDate: birthDate(18, 1) });
    expect(young).toMatchObject({ ok: false, code: 'UNDER_AGE', rule: 'R-AGE' });
    const adult = await link.register('camille_d', 'un mot de passe assez long 42', { lastName: 'Dupont', firstNames: 'Camille', birthDate: birthDate(30) });
    expect(adult.ok).toBe(true);

    // No limit yet: refused, naming the limit to set (R-LIMITS, no default).
    const card = '4242 4242 4242 4242';
    const first = await cashier.deposit({ requestId: 'r1', amount: 5_000, card });
    result('cashierDeposit', first);
    expect(first).toMatchObject({ ok: false, code: 'LIMIT_NOT_SET', details: { limitKind: 'deposit' } });
    const view = await cashier.get();
    result('protectionGet', view);
    expect(view.protection?.limits).toEqual({ deposit: null, stake: null, time: null });
    expect(view.protection?.identified).toBe(true);

    const set = await cashier.setLimit({ limit: 'deposit', value: 10_000 });
    result('protectionSetLimit', set);
    expect(set.protection?.limits.deposit).toEqual({ value: 10_000, pending: null });
    // Over the limit: refused with the limit and what is used (freeAt null: the amount alone is over it).
    const over = await cashier.deposit({ requestId: 'r2', amount: 20_000, card });
    expect(over).toMatchObject({ ok: false, code: 'DEPOSIT_LIMIT', rule: 'R-LIMITS', details: { limit: 10_000, used: 0, freeAt: null } });

    const done = await cashier.deposit({ requestId: 'r3', amount: 5_000, card });
    result('cashierDeposit', done);
    expect(done).toMatchObject({ ok: true, replayed: false, payment: { state: 'confirmed', amount: 5_000, direction: 'deposit', cardLast4: '4242' }, withdrawable: 5_000 });
    expect(done.balances?.real).toBe(5_000);
    expect(moved).toBeGreaterThan(0);
    // The same request again is answered with the payment first recorded, moving nothing more.
    const again = await cashier.deposit({ requestId: 'r3', amount: 5_000, card });
    expect(again).toMatchObject({ ok: true, replayed: true, payment: { paymentId: done.payment!.paymentId } });
    const list = await cashier.movements({ before: null, limit: 10 });
    result('cashierMovements', list);
    expect(list.payments?.map((p) => [p.paymentId, p.state])).toEqual([[done.payment!.paymentId, 'confirmed']]);

    const withdrawn = await cashier.withdraw({ requestId: 'w1', amount: 7_000, card });
    expect(withdrawn).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS' });

    // R-TIMELIMIT: a 20-minute limit, a hand dealt: the operator's warnings arrive as events.
    await cashier.setLimit({ limit: 'time', value: 20 * 60_000 });
    op.playtime.handDealt(adult.ok ? adult.account.id : -1, 'p1');
    const end = Date.now() + 5_000;
    while (!pushed.some((p) => p.event === 'protectionWarning') && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    const warning = pushed.find((p) => p.event === 'protectionWarning');
    expect(warning?.payload).toMatchObject({ warning: 'near', limitMs: 20 * 60_000 });
    expect(validate(events.protectionWarning, warning!.payload).ok).toBe(true);
    op.playtime.left(adult.ok ? adult.account.id : -1, 'p1');

    // R-EXCLUDE: then a deposit is refused with the end of the exclusion.
    const excluded = await cashier.exclude({ choice: { kind: 'days', days: 7 }, confirm: true });
    result('protectionExclude', excluded);
    expect(excluded.protection?.exclusion?.until).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const refused = await cashier.deposit({ requestId: 'r4', amount: 1_000, card });
    expect(refused).toMatchObject({ ok: false, code: 'SELF_EXCLUDED', rule: 'R-EXCLUDE', details: { until: excluded.protection!.exclusion!.until } });
  });

  it('says OFFLINE when there is no link', async () => {
    const cashier = new ClientCashier({ link: () => null, broadcast: () => undefined, balancesMoved: () => undefined });
    expect(await cashier.get()).toMatchObject({ ok: false, code: 'OFFLINE' });
    expect(await cashier.deposit({ requestId: 'x', amount: 1, card: '4242 4242 4242 4242' })).toMatchObject({ ok: false, code: 'OFFLINE' });
  });
});
