/** The running totals that both sides of the compact codec replay to predict amounts and rebuild derived fields. */
import type { Card } from '../../rules/cards';
import type { LogEntry, PostKind } from '../../rules/engine/types';
import type { TableRules } from '../../rules/tableRules';
import type { RoundName } from '../../rules/variants';
import { ROUND_IDS } from './format';

export class Replay {
  readonly stack: number[];
  readonly roundBet: number[];
  readonly committed: number[];
  readonly hole: (Card | null)[][];
  readonly up: boolean[][];
  readonly board: Card[] = [];
  readonly returns: { seat: number; amount: number; round: RoundName }[] = [];
  /** Rounds seen, as bits of their ROUND_IDS index. */
  present = 0;
  currentBet = 0;
  round: RoundName | null = null;

  constructor(
    tableSize: number,
    seats: readonly { seat: number; stackBefore: number }[],
    private readonly rules: TableRules,
    private readonly firstStreet: RoundName,
  ) {
    this.stack = new Array<number>(tableSize).fill(0);
    this.roundBet = new Array<number>(tableSize).fill(0);
    this.committed = new Array<number>(tableSize).fill(0);
    this.hole = [];
    this.up = [];
    for (let i = 0; i < tableSize; i++) {
      this.hole.push([]);
      this.up.push([]);
    }
    for (const s of seats) this.stack[s.seat] = s.stackBefore;
  }

  enter(round: RoundName): void {
    if (round === this.round) return;
    this.present |= 1 << ROUND_IDS.indexOf(round);
    // Blinds posted in the `bet` round are the first street's bets; any other new round starts clean.
    if (!(this.round === 'bet' && round === this.firstStreet)) {
      this.roundBet.fill(0);
      this.currentBet = 0;
    }
    this.round = round;
  }

  postOwed(seat: number, kind: PostKind): number {
    const r = this.rules;
    const amount = kind === 'ante' ? r.ante : kind === 'big blind' ? r.bigBlind : r.smallBlind;
    return Math.min(amount, this.stack[seat]);
  }

  bringInOwed(seat: number): number {
    return Math.min(this.rules.bringIn, this.stack[seat]);
  }

  callOwed(seat: number): number {
    return Math.max(0, Math.min(this.currentBet - this.roundBet[seat], this.stack[seat]));
  }

  returnOwed(seat: number): number {
    let other = 0;
    for (let i = 0; i < this.roundBet.length; i++) if (i !== seat && this.roundBet[i] > other) other = this.roundBet[i];
    return Math.max(0, this.roundBet[seat] - other);
  }

  pay(seat: number, amount: number, toRound: boolean): void {
    this.stack[seat] -= amount;
    this.committed[seat] += amount;
    if (toRound) {
      this.roundBet[seat] += amount;
      if (this.roundBet[seat] > this.currentBet) this.currentBet = this.roundBet[seat];
    }
  }

  apply(e: LogEntry): void {
    switch (e.kind) {
      case 'post':
        this.pay(e.seat, e.amount, e.post === 'small blind' || e.post === 'big blind');
        // R-ALLIN: a short big blind still sets the full blind for the others.
        if (e.post === 'big blind' && this.rules.bigBlind > this.currentBet) this.currentBet = this.rules.bigBlind;
        break;
      case 'bring-in':
        this.pay(e.seat, e.amount, true);
        if (this.rules.bringIn > this.currentBet) this.currentBet = this.rules.bringIn;
        break;
      case 'call':
        this.pay(e.seat, e.amount, true);
        break;
      case 'bet':
      case 'raise':
      case 'complete':
        this.stack[e.seat] -= e.amount;
        this.committed[e.seat] += e.amount;
        this.roundBet[e.seat] = e.to;
        this.currentBet = e.to;
        break;
      case 'return':
        this.stack[e.seat] += e.amount;
        this.committed[e.seat] -= e.amount;
        this.roundBet[e.seat] -= e.amount;
        this.returns.push({ seat: e.seat, amount: e.amount, round: e.round });
        break;
      case 'deal':
        if (e.seat === null) {
          for (const c of e.cards) this.board.push(c as Card);
        } else {
          for (const c of e.cards) this.hole[e.seat].push(c);
          for (const u of e.up) this.up[e.seat].push(u);
        }
        break;
      case 'discard': {
        // As the engine does: the card itself, else an unknown card of this view.
        const hole = this.hole[e.seat];
        const up = this.up[e.seat];
        for (const c of e.cards) {
          let at = c === null ? -1 : hole.indexOf(c);
          if (at < 0) at = hole.indexOf(null);
          if (at < 0) continue;
          hole.splice(at, 1);
          up.splice(at, 1);
        }
        break;
      }
      case 'show':
        this.hole[e.seat] = e.cards.slice();
        break;
      default:
        break;
    }
  }
}
