/**
 * The cashier's movements follow a pending payment until it is confirmed or failed (docs/protection.md: a
 * late confirmation lands at the operator's next round of questions), then stop
 * asking. The client API is a stub here (the store's neighbour); the operator side has its own tests.
 */
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from 'vue';
import type { CercleApi } from '../../../shared/api';
import type { PaymentWire, ProtectionViewWire } from '../../../shared/protocol/cashier';
import { API_KEY } from '../useApi';
import { useProtectionStore } from './protection';
import { useSessionStore } from './session';

const VIEW: ProtectionViewWire = {
  at: 0,
  limits: { deposit: { value: 10_000, pending: null }, stake: null, time: null },
  counters: { deposits: 0, stakes: 0, timeUsedMs: 0, period: null },
  exclusion: null,
  closed: null,
  identified: true,
  withdrawable: 0,
};
const payment = (state: PaymentWire['state']): PaymentWire => ({
  paymentId: 'cercle-1',
  requestId: 'r1',
  direction: 'deposit',
  amount: 5_000,
  cardLast4: '3220',
  provider: 'test',
  providerRef: 'test-1',
  state,
  failure: null,
  createdAt: 1,
  updatedAt: state === 'pending' ? 1 : 2,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the protection store', () => {
  it('asks again while a payment is pending, and stops once it is confirmed', async () => {
    vi.useFakeTimers();
    const states: PaymentWire['state'][] = ['pending', 'pending', 'confirmed'];
    const cashierMovements = vi.fn(async () => ({ ok: true, payments: [payment(states.shift() ?? 'confirmed')], next: null }));
    const api = {
      on: vi.fn(),
      cashierDeposit: vi.fn(async () => ({ ok: true, payment: payment('pending'), replayed: false, balances: { real: 0, play: 0 }, withdrawable: 0 })),
      cashierMovements,
      protectionGet: vi.fn(async () => ({ ok: true, protection: VIEW })),
    } as unknown as CercleApi;
    const app = createApp({});
    app.provide(API_KEY, api);
    app.use(createPinia());
    const store = app.runWithContext(() => {
      useSessionStore().session = { link: { state: 'connected', why: null, attempt: 0, retryInMs: null, reason: null, minVersion: null }, operator: { mode: 'custom', url: 'wss://x' }, account: { username: 'camille_d', guest: false }, balances: { real: 0, play: 0 } };
      return useProtectionStore();
    });

    const r = await store.pay('deposit', 5_000, '4000 0000 0000 3220', 'r1');
    expect(r.payment?.state).toBe('pending');
    expect(cashierMovements).toHaveBeenCalledTimes(1);
    expect(store.payments[0]?.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(cashierMovements).toHaveBeenCalledTimes(2);
    expect(store.payments[0]?.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(cashierMovements).toHaveBeenCalledTimes(3);
    expect(store.payments[0]?.state).toBe('confirmed');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(cashierMovements).toHaveBeenCalledTimes(3);
  });
});
