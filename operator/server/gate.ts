/**
 * Bounds on open connections: one address holding hundreds of idle sockets used to
 * exhaust the operator's file descriptors and shut everyone out.
 *
 * - Every TCP connection must complete TLS, the WebSocket upgrade and `hello` within `helloTimeoutMs`,
 *   else it is closed (4002 once it is a WebSocket, else the socket is destroyed). `/health` requests
 *   are answered meanwhile; their sockets fall under the same deadline.
 * - At most `perAddress` open connections from one address (IPv6: one /64), and `global` in all,
 *   counted from TCP accept (an idle socket holds a descriptor before it says anything). A connection
 *   over a cap is still given the deadline to finish its upgrade, to be told why it is refused (close
 *   4003 for its address, 4004 for the operator), but only `answerSlack` of them at a time per address
 *   (`4 × answerSlack` overall); the rest are destroyed at accept, costing a descriptor for an instant.
 *
 * Behind a trusted proxy (trustProxy) every socket comes from the proxy: the per-address cap is then
 * taken on the forwarded address at the upgrade, the global cap still at accept.
 */
import { addressKey } from '../login-throttle';

export interface ConnectionLimits {
  /** Time from TCP accept to `hello`. */
  helloTimeoutMs: number;
  /** Open connections from one address (IPv6 /64). */
  perAddress: number;
  /** Open connections in all. */
  global: number;
  /** Connections over a cap kept open to be answered with a close code, per address. */
  answerSlack: number;
}

/**
 * 5 s to say hello (a client on a slow line needs one round trip for TCP, two for TLS, one for the
 * upgrade); 32 connections per address (a household or a café behind one NAT; one client holds one);
 * 900 in all, below the common 1,024 descriptor limit (`ulimit -n`) with room for the databases, the
 * TLS files and the log. An operator whose limit is raised raises `global` with it
 * (`--max-connections`).
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { helloTimeoutMs: 5_000, perAddress: 32, global: 900, answerSlack: 4 };

/** WebSocket close codes of the gate (docs/protocol.md "Close codes"). */
export const CLOSE_HELLO_TIMEOUT = 4002;
export const CLOSE_ADDRESS_FULL = 4003;
export const CLOSE_OPERATOR_FULL = 4004;

/** What the gate decided for a new connection. */
export type Admission = 'ok' | 'address' | 'global' | 'drop';

/** Counts open connections per address and in all. */
export class ConnectionGate {
  private readonly byAddress = new Map<string, { open: number; refusing: number }>();
  private open = 0;
  private refusing = 0;

  constructor(readonly limits: ConnectionLimits) {}

  /** The key an address is counted under (`null` for an address that is not an IP: counted globally only). */
  static key(ip: string | undefined): string | null {
    return ip === undefined ? null : addressKey(ip);
  }

  /**
   * A new connection from `key` (`null`: count it globally only). Every admission but `drop` must be
   * given back with {@link release} and the same arguments when the connection ends.
   */
  admit(key: string | null, global = true): Admission {
    const a = key === null ? null : (this.byAddress.get(key) ?? { open: 0, refusing: 0 });
    let verdict: Admission = 'ok';
    if (a && a.open >= this.limits.perAddress) verdict = a.refusing < this.limits.answerSlack ? 'address' : 'drop';
    else if (global && this.open >= this.limits.global) verdict = this.refusing < 4 * this.limits.answerSlack ? 'global' : 'drop';
    if (verdict === 'drop') return verdict;
    const refused = verdict !== 'ok';
    if (global) {
      if (refused) this.refusing++;
      else this.open++;
    }
    if (a && key !== null) {
      if (refused) a.refusing++;
      else a.open++;
      this.byAddress.set(key, a);
    }
    return verdict;
  }

  release(key: string | null, verdict: Admission, global = true): void {
    if (verdict === 'drop') return;
    const refused = verdict !== 'ok';
    if (global) {
      if (refused) this.refusing--;
      else this.open--;
    }
    const a = key === null ? undefined : this.byAddress.get(key);
    if (a && key !== null) {
      if (refused) a.refusing--;
      else a.open--;
      if (a.open === 0 && a.refusing === 0) this.byAddress.delete(key);
    }
  }

  /** Open connections (for /health). */
  get count(): number {
    return this.open;
  }
}
