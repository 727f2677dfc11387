/** The compact codec's log entries: the opcode and operands of each action, written and read side by side. */
import type { Card } from '../../rules/cards';
import type { LogEntry, PostKind } from '../../rules/engine/types';
import type { RoundName } from '../../rules/variants';
import { type ByteReader, type ByteWriter, CorruptBytes } from '../bytes';
import { ROUND_IDS, sameCards } from './format';
import { type Replay } from './totals';

// The card stream: 0..51 a card (R-CARDCODE), 52 an unknown card.
export const UNKNOWN_CARD = 52;

export function cardCode(c: Card | null): number {
  if (c === null) return UNKNOWN_CARD;
  if (!(Number.isInteger(c) && c >= 0 && c <= 51)) throw new RangeError(`not a card code: ${String(c)}`);
  return c;
}

// Opcode kinds (low 4 bits of the opcode byte) and post kinds, frozen: on disk. Kept in this module: its hot loops compare against them.
const POST_KINDS: readonly PostKind[] = ['ante', 'small blind', 'big blind', 'dead small blind'];
const K_POST = 0;
const K_DEAL = 1;
const K_RESHUFFLE = 2;
const K_BRING_IN = 3;
const K_FOLD = 4;
const K_CHECK = 5;
const K_CALL = 6;
const K_BET = 7;
const K_RAISE = 8;
const K_COMPLETE = 9;
const K_DISCARD = 10;
const K_SHOW = 11;
const K_MUCK = 12;
const K_RETURN = 13;
const K_CALL_OWED = 14; // a call of exactly what the running totals say is owed: no operand
const ROUND_ESCAPE = 7;

export function roundId(x: RoundName): number {
  const i = ROUND_IDS.indexOf(x);
  if (i < 0) throw new RangeError(`unknown round ${String(x)}`);
  return i;
}

export function writeAmount(w: ByteWriter, actual: number, predicted: number): void {
  if (actual === predicted) w.byte(0);
  else w.uint(actual + 1);
}

export function encodeEntry(e: LogEntry, w: ByteWriter, cards: number[], replay: Replay, rounds: readonly RoundName[]): void {
  let kind: number;
  switch (e.kind) {
    case 'post':
      kind = K_POST;
      break;
    case 'deal':
      kind = K_DEAL;
      break;
    case 'reshuffle':
      kind = K_RESHUFFLE;
      break;
    case 'bring-in':
      kind = K_BRING_IN;
      break;
    case 'fold':
      kind = K_FOLD;
      break;
    case 'check':
      kind = K_CHECK;
      break;
    case 'call':
      kind = e.amount === replay.callOwed(e.seat) ? K_CALL_OWED : K_CALL;
      break;
    case 'bet':
      kind = K_BET;
      break;
    case 'raise':
      kind = K_RAISE;
      break;
    case 'complete':
      kind = K_COMPLETE;
      break;
    case 'discard':
      kind = K_DISCARD;
      break;
    case 'show':
      kind = K_SHOW;
      break;
    case 'muck':
      kind = K_MUCK;
      break;
    case 'return':
      kind = K_RETURN;
      break;
    default:
      throw new RangeError(`unknown log entry ${JSON.stringify(e)}`);
  }
  const ri = rounds.indexOf(e.round);
  const allIn = 'allIn' in e && e.allIn;
  w.byte((allIn ? 0x80 : 0) | ((ri < 0 || ri >= ROUND_ESCAPE ? ROUND_ESCAPE : ri) << 4) | kind);
  if (ri < 0 || ri >= ROUND_ESCAPE) w.byte(roundId(e.round));
  if (e.kind === 'reshuffle') {
    w.uint(e.stub);
    return;
  }
  w.uint(e.seat === null ? 0 : e.seat + 1);
  switch (e.kind) {
    case 'post': {
      const pk = POST_KINDS.indexOf(e.post);
      if (pk < 0) throw new RangeError(`unknown post ${String(e.post)}`);
      const owed = replay.postOwed(e.seat, e.post);
      w.byte(pk | (e.amount === owed ? 0 : 4));
      if (e.amount !== owed) w.uint(e.amount);
      return;
    }
    case 'bring-in':
      writeAmount(w, e.amount, replay.bringInOwed(e.seat));
      return;
    case 'call':
      if (kind === K_CALL) w.uint(e.amount);
      return;
    case 'bet':
    case 'raise':
    case 'complete': {
      const predicted = e.to - replay.roundBet[e.seat];
      w.tagged(e.amount === predicted, e.to);
      if (e.amount !== predicted) w.uint(e.amount);
      return;
    }
    case 'return':
      writeAmount(w, e.amount, replay.returnOwed(e.seat));
      return;
    case 'deal': {
      const n = e.cards.length;
      if (e.up.length !== n) throw new RangeError('a deal has as many face flags as cards');
      let allDown = true;
      let allUp = true;
      let hidden = true;
      for (let k = 0; k < n; k++) {
        if (e.up[k]) allDown = false;
        else allUp = false;
        if ((e.cards[k] === null) !== !e.up[k]) hidden = false;
      }
      const upMode = allDown ? 0 : allUp ? 1 : 2;
      w.byte((hidden ? 0x40 : 0) | (upMode << 4) | (n < 15 ? n : 15));
      if (n >= 15) w.uint(n);
      if (upMode === 2) {
        let mask = 0;
        for (let k = 0; k < n; k++) if (e.up[k]) mask += 2 ** k;
        w.uint(mask);
      }
      for (let k = 0; k < n; k++) if (!hidden || e.up[k]) cards.push(cardCode(e.cards[k]));
      return;
    }
    case 'discard': {
      const n = e.cards.length;
      const allUnknown = e.cards.every((c) => c === null);
      w.byte((allUnknown ? 0x40 : 0) | (n < 15 ? n : 15));
      if (n >= 15) w.uint(n);
      if (!allUnknown) for (const c of e.cards) cards.push(cardCode(c));
      return;
    }
    case 'show': {
      if (sameCards(e.cards, replay.hole[e.seat])) {
        w.byte(0);
        return;
      }
      w.byte(1);
      w.uint(e.cards.length);
      for (const c of e.cards) cards.push(cardCode(c));
      return;
    }
    default:
      return;
  }
}

export function amount(r: ByteReader): number {
  const x = r.uint();
  if (x > Number.MAX_SAFE_INTEGER) throw new CorruptBytes('an amount is larger than 2^53 − 1');
  return x;
}

export function readRound(r: ByteReader): RoundName {
  const id = r.byte();
  if (id >= ROUND_IDS.length) throw new CorruptBytes(`round ${id} is unknown`);
  return ROUND_IDS[id];
}

export function readAmount(r: ByteReader, predicted: number): number {
  const x = r.uint();
  if (x === 0) return predicted;
  if (x - 1 > Number.MAX_SAFE_INTEGER) throw new CorruptBytes('an amount is larger than 2^53 − 1');
  return x - 1;
}

export function decodeEntry(r: ByteReader, card: () => Card | null, replay: Replay, rounds: readonly RoundName[], tableSize: number): LogEntry {
  const op = r.byte();
  const kind = op & 0x0f;
  const ri = (op >> 4) & 7;
  const allIn = (op & 0x80) !== 0;
  let round: RoundName;
  if (ri === ROUND_ESCAPE) round = readRound(r);
  else if (ri < rounds.length) round = rounds[ri];
  else throw new CorruptBytes(`round ${ri} is not a round of this variant`);
  replay.enter(round);
  if (kind === 15) throw new CorruptBytes('unknown action kind 15');
  if (kind === K_RESHUFFLE) {
    if (allIn) throw new CorruptBytes('a reshuffle is not all-in');
    return { round, kind: 'reshuffle', stub: r.count(52, 'the stub') };
  }
  const seatCode = r.count(tableSize, 'an action seat');
  if (kind !== K_DEAL && seatCode === 0) throw new CorruptBytes('only the board is dealt without a seat');
  const seat = seatCode - 1;
  const noAllIn = (): void => {
    if (allIn) throw new CorruptBytes('this action cannot be all-in');
  };
  switch (kind) {
    case K_POST: {
      const b = r.byte();
      if (b > 7) throw new CorruptBytes('unknown post');
      const post = POST_KINDS[b & 3];
      const amt = b & 4 ? amount(r) : replay.postOwed(seat, post);
      return { round, kind: 'post', seat, post, amount: amt, allIn };
    }
    case K_BRING_IN:
      return { round, kind: 'bring-in', seat, amount: readAmount(r, replay.bringInOwed(seat)), allIn };
    case K_FOLD:
      noAllIn();
      return { round, kind: 'fold', seat };
    case K_CHECK:
      noAllIn();
      return { round, kind: 'check', seat };
    case K_CALL:
      return { round, kind: 'call', seat, amount: amount(r), allIn };
    case K_CALL_OWED:
      return { round, kind: 'call', seat, amount: replay.callOwed(seat), allIn };
    case K_BET:
    case K_RAISE:
    case K_COMPLETE: {
      const t = r.tagged();
      if (t.value > Number.MAX_SAFE_INTEGER) throw new CorruptBytes('an amount is larger than 2^53 − 1');
      const to = t.value;
      const amt = t.tag ? to - replay.roundBet[seat] : amount(r);
      return { round, kind: kind === K_BET ? 'bet' : kind === K_RAISE ? 'raise' : 'complete', seat, amount: amt, to, allIn };
    }
    case K_RETURN:
      noAllIn();
      return { round, kind: 'return', seat, amount: readAmount(r, replay.returnOwed(seat)) };
    case K_MUCK:
      noAllIn();
      return { round, kind: 'muck', seat };
    case K_DEAL: {
      noAllIn();
      const head = r.byte();
      if (head & 0x80) throw new CorruptBytes('unknown deal flags');
      const hidden = (head & 0x40) !== 0;
      const upMode = (head >> 4) & 3;
      if (upMode === 3) throw new CorruptBytes('unknown face mode');
      let n = head & 15;
      if (n === 15) n = r.count(52, 'a deal size');
      const up: boolean[] = [];
      if (upMode === 2) {
        const mask = r.uint();
        if (mask >= 2 ** n) throw new CorruptBytes('a face mask names more cards than the deal');
        for (let k = 0; k < n; k++) up.push(Math.floor(mask / 2 ** k) % 2 === 1);
      } else {
        for (let k = 0; k < n; k++) up.push(upMode === 1);
      }
      const cards: (Card | null)[] = [];
      for (let k = 0; k < n; k++) cards.push(!hidden || up[k] ? card() : null);
      if (seatCode === 0 && cards.some((c) => c === null)) throw new CorruptBytes('a board card is unknown');
      return { round, kind: 'deal', seat: seatCode === 0 ? null : seat, cards, up };
    }
    case K_DISCARD: {
      noAllIn();
      const head = r.byte();
      if (head & 0xb0) throw new CorruptBytes('unknown discard flags');
      let n = head & 15;
      if (n === 15) n = r.count(52, 'a discard size');
      const cards: (Card | null)[] = [];
      for (let k = 0; k < n; k++) cards.push(head & 0x40 ? null : card());
      return { round, kind: 'discard', seat, cards };
    }
    case K_SHOW: {
      noAllIn();
      const mode = r.byte();
      if (mode === 0) return { round, kind: 'show', seat, cards: replay.hole[seat].slice() };
      if (mode !== 1) throw new CorruptBytes('unknown show mode');
      const n = r.count(52, 'a show size');
      const cards: (Card | null)[] = [];
      for (let k = 0; k < n; k++) cards.push(card());
      return { round, kind: 'show', seat, cards };
    }
    default:
      throw new CorruptBytes(`unknown action kind ${kind}`);
  }
}
