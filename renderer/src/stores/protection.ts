import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { CallArgs, EventPayload, Outcome, PaymentAnswer, ProtectionAnswer } from '../../../shared/api';
import type { PaymentWire, ProtectionViewWire } from '../../../shared/protocol/cashier';
import { newRequestId } from '../protection';
import { useApi } from '../useApi';
import { useSessionStore } from './session';
import { useTablesStore } from './tables';

/** While a payment is pending, its state is asked again this often (docs/protection.md: a late confirmation). */
const PENDING_POLL_MS = 2_000;
/** The operator's counters are read again this often while seated at a real-money table. */
const SEATED_REFRESH_MS = 60_000;

/**
 * The cashier and the protection duties as the pages see them: the operator's protection view
 * (limits, pending raises, counters, exclusion, withdrawable), the payments with their states, and the
 * playing-time warnings waiting for the player's click (R-TIMELIMIT, art. 16-1).
 */
export const useProtectionStore = defineStore('protection', () => {
  const api = useApi();
  const session = useSessionStore();
  const tables = useTablesStore();
  const view = ref<ProtectionViewWire | null>(null);
  /** When `view` arrived, by this page's clock (the counter runs from it while seated). */
  const viewAt = ref(0);
  const payments = ref<PaymentWire[]>([]);
  const nextPage = ref<string | null>(null);
  const warnings = ref<EventPayload<'protectionWarning'>[]>([]);
  let pollTimer: ReturnType<typeof setTimeout> | null = null;
  let seatedTimer: ReturnType<typeof setInterval> | null = null;

  /** A real-money account (not a guest): the counter and the cashier apply. */
  const realMoney = computed(() => {
    const a = session.session?.account;
    return a !== null && a !== undefined && !a.guest;
  });
  /**
   * Seated at a real-money table where a hand has been dealt since sitting (a hand in progress, or one
   * ended): the operator's playing-time counter runs from the first hand dealt until the player leaves
   * (R-TIMELIMIT; docs/protection.md).
   */
  const seatedReal = computed(() => tables.list.some((s) => s.status !== 'gone' && s.view?.money === 'real' && s.view.you !== null && (s.view.hand !== null || s.lastHand !== null)));

  function took(r: ProtectionAnswer): ProtectionAnswer {
    if (r.ok && r.protection) {
      view.value = r.protection;
      viewAt.value = Date.now();
    }
    return r;
  }

  async function refresh(): Promise<ProtectionAnswer> {
    if (!realMoney.value) {
      view.value = null;
      return { ok: false, code: 'IDENTITY_REQUIRED', message: 'not a real-money account' };
    }
    return took(await api.protectionGet({}));
  }

  async function loadMovements(): Promise<Outcome> {
    const r = await api.cashierMovements({ before: null, limit: 50 });
    if (r.ok) {
      payments.value = r.payments ?? [];
      nextPage.value = r.next ?? null;
    }
    schedulePoll();
    return r;
  }

  async function moreMovements(): Promise<void> {
    if (nextPage.value === null) return;
    const r = await api.cashierMovements({ before: nextPage.value, limit: 50 });
    if (r.ok) {
      payments.value = [...payments.value, ...(r.payments ?? [])];
      nextPage.value = r.next ?? null;
    }
  }

  /** docs/protection.md: a pending payment is confirmed or failed later; the list follows it until then. */
  function schedulePoll(): void {
    if (pollTimer !== null) clearTimeout(pollTimer);
    pollTimer = null;
    if (!payments.value.some((p) => p.state === 'pending')) return;
    pollTimer = setTimeout(() => {
      pollTimer = null;
      void loadMovements().then(() => refresh());
    }, PENDING_POLL_MS);
  }

  async function pay(direction: 'deposit' | 'withdraw', amount: number, card: string, requestId = newRequestId()): Promise<PaymentAnswer> {
    const args: CallArgs<'cashierDeposit'> = { requestId, amount, card };
    const r = direction === 'deposit' ? await api.cashierDeposit(args) : await api.cashierWithdraw(args);
    await Promise.all([loadMovements(), refresh()]);
    return r;
  }

  async function setLimit(limit: CallArgs<'protectionSetLimit'>['limit'], value: number): Promise<ProtectionAnswer> {
    return took(await api.protectionSetLimit({ limit, value }));
  }

  /** R-EXCLUDE: called only after the page asked twice. */
  async function exclude(choice: CallArgs<'protectionExclude'>['choice']): Promise<ProtectionAnswer> {
    return took(await api.protectionExclude({ choice, confirm: true }));
  }

  /** R-EXCLUDE: the player closes their account; called only after the page asked twice. */
  async function closeAccount(): Promise<ProtectionAnswer> {
    return took(await api.accountClose({ confirm: true }));
  }

  function dismissWarning(): void {
    warnings.value = warnings.value.slice(1);
  }

  let loaded = false;
  function load(): void {
    if (loaded) return;
    loaded = true;
    api.on('protectionWarning', (w) => {
      warnings.value = [...warnings.value, w];
      void refresh();
    });
    // R-BANNED, R-EXCLUDE: the operator closed the account (a new ban file, or this player elsewhere):
    // the status bar and the pages show it from the view read again.
    api.on('accountClosed', () => void refresh());
    // Another account (a registration, a login, a logout): its own figures, read again.
    let account: string | null = null;
    api.on('session', (s) => {
      const now = s.account && !s.account.guest ? s.account.username : null;
      if (now === account) return;
      account = now;
      payments.value = [];
      nextPage.value = null;
      view.value = null;
      if (now !== null) void refresh();
    });
    seatedTimer = setInterval(() => {
      if (realMoney.value && seatedReal.value) void refresh();
    }, SEATED_REFRESH_MS);
    void refresh();
  }

  function stop(): void {
    if (pollTimer !== null) clearTimeout(pollTimer);
    if (seatedTimer !== null) clearInterval(seatedTimer);
  }

  return { view, viewAt, payments, nextPage, warnings, realMoney, seatedReal, refresh, loadMovements, moreMovements, pay, setLimit, exclude, closeAccount, dismissWarning, load, stop };
});
