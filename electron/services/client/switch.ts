/**
 * Operator switches under way (session.ts `reconnect`: the settings name another operator, or the player
 * reconnects). The old link closes, then the new one is made; an account call (login, register,
 * logout) made meanwhile waits for the new link instead of going to the closing one, where it came
 * back DISCONNECTED, or OFFLINE between the two links, and the page showed that failure (met by the
 * main-process test in a clean-clone CI run). The embedded operator started again after it stopped
 * is such a switch too (session.ts `relaunchLater`).
 */

/**
 * How long an account call made during a switch waits for the new link to exist (the old embedded
 * operator stops; a new one may start). Then the call waits on that link like any request: until it
 * is connected (answered), offline (refused with why) or the request timeout.
 */
export const SWITCH_WAIT_MS = 30_000;

/** One reconnect's part in the switch under way. */
export interface SwitchTicket {
  ended: boolean;
}

export class OperatorSwitch {
  /** Resolves once every switch under way has made its new link, or ended without one. */
  private current: { done: Promise<void>; end: () => void; count: number } | null = null;
  /** The switch whose link the next link made belongs to. */
  private armed: SwitchTicket | null = null;

  /** A switch begins (synchronously, before anything awaits: a call made right after it waits). */
  begin(): SwitchTicket {
    if (this.current === null) {
      let end!: () => void;
      const done = new Promise<void>((r) => (end = r));
      this.current = { done, end, count: 0 };
    }
    this.current.count++;
    return { ended: false };
  }

  /** The old link is closed: the next link made is this switch's. */
  arm(ticket: SwitchTicket): void {
    this.armed = ticket;
  }

  /** A link was made (and is connecting): the armed switch, if any, is done. */
  linkMade(): void {
    const ticket = this.armed;
    this.armed = null;
    if (ticket !== null) this.end(ticket);
  }

  /** The switch is over (its link made, or none will come: offline, closed). When it was the last, held calls go on. */
  end(ticket: SwitchTicket): void {
    if (this.armed === ticket) this.armed = null;
    if (ticket.ended) return;
    ticket.ended = true;
    const c = this.current;
    if (c === null || --c.count > 0) return;
    this.current = null;
    c.end();
  }

  /** Waits until no switch is under way, at most `ms`. */
  async settled(ms = SWITCH_WAIT_MS): Promise<void> {
    const c = this.current;
    if (c === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([c.done, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }
}
