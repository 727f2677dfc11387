/**
 * The session with the operator (DESIGN.md §1-§3): which operator, the link to it, the account and
 * the balances, and the calls that change them (login, register, rename, logout, reconnect).
 *
 * - Operator: the embedded one (started here on launch, its first-run key pinned; its guest signs in
 *   by itself) or another one from the settings (URL and pins; login with a username and password).
 *   The embedded operator that stops is started again, with backoff, and its session resumed.
 * - Each new link is given to the other services (`attach`), which follow its events themselves.
 * - Secrets: the session token never leaves main (`TokenVault`: safeStorage in Electron, memory only
 *   under the browser host).
 * - Balances are read again after anything that moves them (`balancesMoved`), one request at a time.
 */
import type { CallArgs, Handlers, LinkStatusView, Outcome, SessionInfo } from '../../../shared/api';
import type { EmbeddedOperatorProcess } from '../embedded/launcher';
import { OperatorLink } from '../link/link';
import type { ClientCoreOptions } from './options';
import { notConnected, refusal } from './outcome';
import type { ClientPushes } from './pushes';
import { OperatorSwitch, type SwitchTicket } from './switch';

export interface ClientSessionOptions {
  core: ClientCoreOptions;
  pushes: ClientPushes;
  now: () => number;
  log: (line: string) => void;
  /** The other services follow a new link; each gives back what stops following it. */
  attach: (link: OperatorLink) => (() => void)[];
  /** Signed in on a new connection: the lobby is read, then the history synchronised. */
  authed: (link: OperatorLink, operatorUrl: string) => void;
  /** R-HISTORY: the hands played under the old name are fetched before a rename (history/sync.ts). */
  syncHistory: (link: OperatorLink, operatorUrl: string) => Promise<void>;
  /** Reconnecting: what the old operator showed (its lobby) goes. */
  reconnecting: () => void;
}

type SessionCalls = 'session' | 'login' | 'logout' | 'rename' | 'reconnect';

interface Endpoint {
  url: string;
  pins: string[];
  token: string | null;
}

const STARTING: LinkStatusView = { state: 'starting', attempt: 0, retryInMs: null, why: null, reason: null, minVersion: null };

export class ClientSession {
  private current: OperatorLink | null = null;
  private embedded: EmbeddedOperatorProcess | null = null;
  /** The embedded operator being started, so that quitting meanwhile waits for it and stops it. */
  private launching: Promise<EmbeddedOperatorProcess> | null = null;
  private relaunchTimer: ReturnType<typeof setTimeout> | null = null;
  private relaunchAttempt = 0;
  /**
   * The embedded operator's session the player has: `undefined` the guest's, a token an account's
   * (signed in or registered there), `null` none (signed out). Resumed when the operator is started again.
   */
  private embeddedToken: string | null | undefined = undefined;
  /** While the embedded operator is started again after it stopped: account calls wait for its link (switch.ts). */
  private relaunchTicket: SwitchTicket | null = null;
  private status: LinkStatusView = STARTING;
  private starting: Promise<void> | null = null;
  /** Operator switches under way: account calls wait for the new link (switch.ts). */
  private readonly switching = new OperatorSwitch();
  private unsubscribers: (() => void)[] = [];
  private balanceInFlight = false;
  private balanceAgain = false;
  private isClosed = false;

  constructor(private readonly o: ClientSessionOptions) {
    o.pushes.provide('session', () => o.core.broadcast('session', this.view()));
  }

  /** The link now (null while none). */
  get link(): OperatorLink | null {
    return this.current;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  handlers(): Pick<Handlers, SessionCalls> {
    return {
      session: async () => this.view(),
      login: (a) => this.login(a),
      logout: () => this.logout(),
      rename: (a) => this.rename(a),
      reconnect: () => this.reconnect(),
    };
  }

  /** Connects to the operator the settings name (starting the embedded one first). Never throws: problems show in `view`. */
  start(): Promise<void> {
    return (this.starting ??= this.connect().finally(() => (this.starting = null)));
  }

  /** Closes the link and the embedded operator (its tables cash out, R-CASH). */
  async close(): Promise<void> {
    this.isClosed = true;
    await this.disconnect();
  }

  view(): SessionInfo {
    const op = this.o.core.settings().operator;
    const link = this.current;
    return {
      link: this.status,
      operator: { mode: op.mode, url: op.mode === 'embedded' ? (this.embedded?.url ?? '') : op.url },
      account: link?.account ? { username: link.account.username, guest: link.account.guest } : null,
      balances: link?.balances ? { ...link.balances } : null,
    };
  }

  /** Balances move on the operator side (buy-in, cash-out, a payment, a tournament entry): read them again. */
  balancesMoved(): void {
    void this.refreshBalance();
    this.o.pushes.soon();
  }

  private async connect(): Promise<void> {
    const op = this.o.core.settings().operator;
    this.setStatus(STARTING);
    let at: Endpoint | null;
    try {
      at = await this.endpoint();
    } catch (e) {
      const why = op.mode === 'embedded' ? 'embedded-failed' : 'settings';
      this.setStatus({ state: 'offline', attempt: 0, retryInMs: null, why, reason: (e as Error).message.slice(0, 2000), minVersion: null });
      return;
    }
    if (at === null || this.isClosed) return;
    const { core } = this.o;
    const link = new OperatorLink({ url: at.url, pins: at.pins, clientVersion: core.version, token: at.token, heartbeat: core.link?.heartbeat, backoff: core.link?.backoff, now: this.o.now, log: this.o.log });
    this.current = link;
    this.unsubscribers = [...this.o.attach(link), ...this.follow(link, at.url, op.mode === 'custom')];
    const connected = link.connect();
    // The new link exists and is connecting: account calls held by a switch go to it now (they wait
    // there until it is connected, or are refused with why when it goes offline).
    this.switching.linkMade();
    try {
      await connected;
    } catch (e) {
      this.o.log(`connect: ${(e as Error).message}`);
    }
  }

  /** Where to connect and with which session: the embedded operator (started first) or the settings' one. Null: quit meanwhile. */
  private async endpoint(): Promise<Endpoint | null> {
    const op = this.o.core.settings().operator;
    if (op.mode !== 'embedded') {
      if (!op.url || op.pins.length === 0) throw new Error('the operator URL and at least one pin are needed (Settings)');
      return { url: op.url, pins: op.pins, token: this.o.core.vault.load() };
    }
    if (!this.embedded) {
      const launching = (this.launching = this.o.core.launchEmbedded());
      this.embedded = await launching.finally(() => (this.launching = null));
    }
    const launched = this.embedded;
    // Quit while it was starting: close() waits for this launch and stops it (R-CASH), so none is left behind.
    if (this.isClosed) return null;
    void launched.exited.then(({ code, signal }) => {
      if (this.isClosed || this.embedded !== launched) return;
      const why = `the embedded operator stopped (${signal ?? `code ${code}`})`;
      this.o.log(why);
      this.embedded = null;
      // Say so at once and start it again by ourselves.
      this.relaunchLater(why);
    });
    // The session the player had with it: the guest's (this launch's token), an account's, or
    // none (signed out). A relaunch after a crash resumes that one, not the guest's by default.
    const token = this.embeddedToken === undefined ? launched.guest.token : this.embeddedToken;
    return { url: launched.url, pins: launched.pins, token };
  }

  /** The link's own events for the session: its state, signing in and out, the session token. */
  private follow(link: OperatorLink, url: string, custom: boolean): (() => void)[] {
    return [
      link.on('state', (s) => this.setStatus({ ...s })),
      link.on('authed', () => {
        this.relaunchAttempt = 0;
        this.o.pushes.schedule('session');
        this.o.authed(link, url);
      }),
      link.on('session', ({ token: t }) => {
        if (custom) this.o.core.vault.save(t);
        // Embedded: kept in memory only (tokens stay in main); the guest's is named by `undefined`,
        // as each launch gives the guest a token of its own.
        else this.embeddedToken = t !== null && t === this.embedded?.guest.token ? undefined : t;
      }),
      link.on('signed-out', () => {
        if (custom) this.o.core.vault.save(null);
        this.o.pushes.schedule('session');
      }),
    ];
  }

  /** The link for an account call (login, register, logout): during an operator switch, the new one (switch.ts). */
  private async accountLink(): Promise<OperatorLink | null> {
    await this.switching.settled();
    return this.current;
  }

  /**
   * The embedded operator is gone: the status says so with the time of the next try, then it is started again
   * and the link rebuilt; tries back off to 10 s apart.
   */
  private relaunchLater(reason: string): void {
    if (this.isClosed || this.relaunchTimer !== null) return;
    // Until the operator started again has its link, an account call waits for that link, as during a
    // switch (switch.ts), instead of being refused OFFLINE while the player sees "reconnecting". One
    // ticket across the tries; it ends with the new link (connect: linkMade), or when the relaunch
    // is given up (the settings changed, a reconnect, quit: disconnect).
    if (this.relaunchTicket === null || this.relaunchTicket.ended) this.relaunchTicket = this.switching.begin();
    this.switching.arm(this.relaunchTicket);
    for (const u of this.unsubscribers.splice(0)) u();
    const link = this.current;
    this.current = null;
    void link?.close();
    const delay = Math.min(10_000, 500 * 2 ** this.relaunchAttempt);
    this.relaunchAttempt++;
    this.setStatus({ state: 'reconnecting', attempt: this.relaunchAttempt, retryInMs: delay, why: 'embedded-stopped', reason: reason.slice(0, 2000), minVersion: null });
    this.relaunchTimer = setTimeout(() => {
      this.relaunchTimer = null;
      if (this.isClosed) return;
      void this.start().then(() => {
        if (this.status.state === 'offline' && this.o.core.settings().operator.mode === 'embedded') this.relaunchLater(this.status.reason ?? reason);
        else this.endRelaunch();
      });
    }, delay);
    this.relaunchTimer.unref?.();
  }

  /** The relaunch's part in the switch is over: held account calls go on (to the new link, or refused with why). */
  private endRelaunch(): void {
    if (this.relaunchTicket !== null) this.switching.end(this.relaunchTicket);
    this.relaunchTicket = null;
  }

  private async disconnect(): Promise<void> {
    if (this.relaunchTimer !== null) clearTimeout(this.relaunchTimer);
    this.relaunchTimer = null;
    this.endRelaunch();
    for (const u of this.unsubscribers.splice(0)) u();
    const link = this.current;
    this.current = null;
    await link?.close();
    // A launch under way is waited for: a quit during the start leaves no operator running behind us.
    const embedded = this.embedded ?? (await this.launching?.catch(() => null)) ?? null;
    this.embedded = null;
    await embedded?.stop();
  }

  private setStatus(s: LinkStatusView): void {
    this.status = { state: s.state, attempt: s.attempt, retryInMs: s.retryInMs, why: s.why, reason: s.reason?.slice(0, 2000) ?? null, minVersion: s.minVersion };
    this.o.pushes.schedule('session');
  }

  /** One balance request at a time; another change meanwhile reads them once more after it. */
  private async refreshBalance(): Promise<void> {
    const link = this.current;
    if (!link || link.state !== 'connected') return;
    if (this.balanceInFlight) {
      this.balanceAgain = true;
      return;
    }
    this.balanceInFlight = true;
    try {
      do {
        this.balanceAgain = false;
        const r = await link.balance();
        if (r.ok) {
          link.balances = r.balances;
          this.o.pushes.schedule('session');
        }
      } while (this.balanceAgain && this.current === link);
    } finally {
      this.balanceInFlight = false;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Requests

  async login(a: CallArgs<'login'>): Promise<Outcome> {
    const link = await this.accountLink();
    if (!link) return notConnected();
    const r = a.register ? await link.register(a.username, a.password, a.identity) : await link.login(a.username, a.password);
    if (!r.ok) return refusal(r);
    this.o.pushes.schedule('session');
    return { ok: true };
  }

  /** A nickname instead of "guest-…"; the operator checks it and refuses it while seated. */
  async rename(a: CallArgs<'rename'>): Promise<Outcome> {
    const link = this.current;
    if (!link) return notConnected();
    // R-HISTORY: the operator's hands name us by the old name and history/sync.ts finds our seat by
    // name, so every hand played under it is fetched before the name changes (no seat, no new hands
    // meanwhile: the operator refuses a rename while seated).
    if (link.account) await this.o.syncHistory(link, this.view().operator.url);
    const r = await link.rename(a.username);
    if (!r.ok) return refusal(r);
    this.o.pushes.schedule('session');
    return { ok: true };
  }

  async logout(): Promise<Outcome> {
    const link = await this.accountLink();
    if (!link) return notConnected();
    const r = await link.logout();
    this.o.core.vault.save(null);
    this.o.pushes.schedule('session');
    return r.ok ? { ok: true } : refusal(r);
  }

  /** Reconnects now with the current settings (a changed operator, or after giving up). */
  async reconnect(): Promise<Outcome> {
    // Synchronously, before anything awaits: a login made right after the settings changed waits for the new link.
    const ticket = this.switching.begin();
    try {
      await this.starting;
      await this.disconnect();
      this.o.reconnecting();
      this.switching.arm(ticket);
      await this.start();
    } finally {
      this.switching.end(ticket); // no new link (offline, closed): the held calls say so
    }
    return this.status.state === 'offline' ? { ok: false, code: 'OFFLINE', message: this.status.reason ?? 'offline' } : { ok: true };
  }
}
