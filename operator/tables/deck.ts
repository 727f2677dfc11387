/**
 * The dealer's deck (R-DEAL, R-DECK): one 52-card deck shuffled by Fisher-Yates over
 * `crypto.randomInt`, a cryptographically secure generator. No burn cards online. The deck lives here,
 * never in the hand state: the engine only knows what it was dealt.
 *
 * Triple Draw: when the stub cannot serve a draw, the engine names the cards to shuffle back in
 * (`reshuffleCards`: earlier rounds' discards, never the current round's); the new stub is the rest of
 * the old one plus those, shuffled again.
 */
import { randomInt } from 'node:crypto';
import { reshuffleCards, type Action, type HandState, type LegalActions } from '../../shared/rules/engine';
import type { Card } from '../../shared/rules/cards';

/** A source of uniform integers in [0, n): `crypto.randomInt` unless a test injects another. */
export type RandomInt = (n: number) => number;

export const secureRandomInt: RandomInt = (n) => randomInt(n);

/** Fisher-Yates over `cards[from..]`, in place. */
export function shuffle(cards: Card[], random: RandomInt = secureRandomInt, from = 0): void {
  for (let i = cards.length - 1; i > from; i--) {
    const j = from + random(i - from + 1);
    const t = cards[i];
    cards[i] = cards[j];
    cards[j] = t;
  }
}

export class Deck {
  private cards: Card[];
  private pos = 0;

  constructor(private readonly random: RandomInt = secureRandomInt) {
    this.cards = Array.from({ length: 52 }, (_, i) => i);
    shuffle(this.cards, random);
  }

  /** Cards left in the stub. */
  get stub(): number {
    return this.cards.length - this.pos;
  }

  take(n: number): Card[] {
    if (n > this.stub) throw new Error(`the stub holds ${this.stub} cards, ${n} asked: reshuffle first`);
    const out = this.cards.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /**
   * The dealer's action for a `deal` step: the cards asked for, or, when the stub cannot serve a draw,
   * what the stub still holds first and then a reshuffle of the cards the engine names (R-DEAL).
   */
  next(state: HandState, legal: LegalActions): Action {
    const req = legal.deal;
    if (req === null) throw new Error('no deal is pending');
    if (req.reshuffle) {
      if (this.stub > 0) return { type: 'deal', seat: req.seat, cards: this.take(this.stub) };
      const back = reshuffleCards(state).filter((c): c is Card => c !== null);
      this.cards = back;
      this.pos = 0;
      shuffle(this.cards, this.random);
      return { type: 'reshuffle' };
    }
    return { type: 'deal', seat: req.seat, cards: this.take(req.count) };
  }
}
