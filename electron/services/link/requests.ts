/**
 * The link's requests and their answers: each request carries a `rid` and resolves
 * with the answer or a refusal value (never throws). Requests made while the link is down wait for
 * it; those in flight when it drops are answered `DISCONNECTED` (they may have been applied: the
 * caller looks again); a request without an answer in time is answered `TIMEOUT`.
 */
import type { ClientMessage, ServerMessage } from '../../../shared/protocol/messages';
import { refusal, type LinkCode, type Refused, type Request } from './types';

interface PendingRequest {
  rid: number;
  body: Request;
  resolve: (m: ServerMessage | Refused) => void;
  timer: NodeJS.Timeout | null;
}

const RID_MAX = 2 ** 31 - 1;

export interface RequestsDeps {
  send(m: ClientMessage): boolean;
  /** The link is in step: requests go now (else they wait for `flush`). */
  ready(): boolean;
  /** Why nothing can be sent at all (the link is closed, offline or needs an update), else null. */
  refusedNow(): Refused | null;
  /** A request is about to be sent under this rid (the link remembers a resume's token). */
  sending?(rid: number, body: Request): void;
}

export class Requests {
  private rid = 0;
  private readonly waiting: PendingRequest[] = [];
  private readonly inflight = new Map<number, PendingRequest>();

  constructor(
    private readonly d: RequestsDeps,
    private readonly timeoutMs: number,
  ) {}

  /** The next rid (requests and actions share the numbering). */
  nextRid(): number {
    this.rid = this.rid >= RID_MAX ? 1 : this.rid + 1;
    return this.rid;
  }

  /** Sends a request (now, or once connected) and resolves with the answer or a refusal. */
  request(body: Request, timeoutMs = this.timeoutMs): Promise<ServerMessage | Refused> {
    const refused = this.d.refusedNow();
    if (refused) return Promise.resolve(refused);
    return new Promise((resolve) => {
      const p: PendingRequest = { rid: 0, body, resolve, timer: null };
      p.timer = setTimeout(() => {
        const i = this.waiting.indexOf(p);
        if (i >= 0) this.waiting.splice(i, 1);
        this.inflight.delete(p.rid);
        this.settle(p, { ok: false, code: 'TIMEOUT', message: `no answer to ${body.type} within ${timeoutMs} ms` });
      }, timeoutMs);
      if (this.d.ready()) this.transmit(p);
      else this.waiting.push(p);
    });
  }

  /** The link is in step: send what waited. */
  flush(): void {
    for (const p of this.waiting.splice(0)) this.transmit(p);
  }

  private transmit(p: PendingRequest): void {
    p.rid = this.nextRid();
    this.d.sending?.(p.rid, p.body);
    this.inflight.set(p.rid, p);
    if (!this.d.send({ ...p.body, rid: p.rid })) {
      this.inflight.delete(p.rid);
      this.settle(p, { ok: false, code: 'DISCONNECTED', message: 'the request could not be sent' });
    }
  }

  /** The answer to request `rid` (an `error` becomes a refusal); ignored when nothing waits for it. */
  answer(rid: number, m: ServerMessage): void {
    const p = this.inflight.get(rid);
    if (!p) return;
    this.inflight.delete(rid);
    this.settle(p, m.type === 'error' ? refusal(m) : m);
  }

  /** The connection dropped: what was in flight is answered DISCONNECTED; what waits still waits. */
  dropped(): void {
    for (const p of this.inflight.values()) this.settle(p, { ok: false, code: 'DISCONNECTED', message: 'the connection dropped before the answer' });
    this.inflight.clear();
  }

  /** The link gave up: what waits is refused. */
  failWaiting(code: LinkCode, message: string): void {
    for (const p of this.waiting.splice(0)) this.settle(p, { ok: false, code, message });
  }

  private settle(p: PendingRequest, r: ServerMessage | Refused): void {
    if (p.timer !== null) clearTimeout(p.timer);
    p.timer = null;
    p.resolve(r);
  }
}
