import { describe, expect, it } from 'vitest';
import { actionFor, apply, legalActions, startHand, viewFor, type Action, type HandState } from '../rules/engine';
import { decide } from '../rules/decide';
import { Dealer, dealFrom, dealerAction, prng, randomPlayerAction, tableConfig } from '../rules/engine/test-support';
import { recordOf } from '../rules/record';
import { makeTableRules } from '../rules/tableRules';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../rules/variants';
import {
  compareVersions,
  MAX_CLIENT_FRAME_BYTES,
  parseClientMessage,
  parseServerMessage,
  PROTOCOL_VERSION,
  utf8Length,
  type ServerMessage,
} from './index';
import { handViewFor } from './hand';
import { conditionsVersion, rulesVersion } from './conditions';
import { refusalDetails } from './refusal';

function rulesFor(v: VariantCode) {
  const limit = VARIANTS[v].betting === 'limit';
  if (VARIANTS[v].forcedBets === 'ante-bring-in') return makeTableRules(v, { ante: 10, bringIn: 20, smallBet: 40 });
  return makeTableRules(v, limit ? { smallBlind: 20, bigBlind: 40 } : { smallBlind: 50, bigBlind: 100 });
}

/** Plays one random hand, calling `each(before, action, after)` for every step. */
function playHand(v: VariantCode, seed: number, each: (before: HandState, a: Action, after: HandState) => void): HandState {
  const rng = prng(seed);
  const seats = Math.min(VARIANTS[v].maxSeats, 6);
  let s = startHand(tableConfig(rulesFor(v), { stacks: Array.from({ length: seats }, (_, i) => 2000 + 300 * i) }));
  const dealer = new Dealer(rng);
  for (;;) {
    const legal = legalActions(s);
    if (legal.next === 'done') return s;
    const a = legal.next === 'deal' ? dealerAction(s, legal, dealer, rng, true) : randomPlayerAction(s, legal, rng);
    const r = apply(s, a);
    if (!r.ok) throw new Error(`${r.rule}: ${r.message}`);
    each(s, a, r.state);
    s = r.state;
  }
}

function roundTrip(msg: ServerMessage): void {
  const parsed = parseServerMessage(JSON.stringify(msg));
  if (!parsed.ok) throw new Error(`${msg.type}: ${parsed.message}`);
  expect(parsed.message).toEqual(msg);
}

describe('client messages', () => {
  it('accepts a hello and every request shape', () => {
    const frames: unknown[] = [
      { type: 'hello', protocol: PROTOCOL_VERSION, client: '0.1.0' },
      { type: 'guest', rid: 1 },
      { type: 'login', rid: 2, username: 'alice', password: 'secret-pass' },
      { type: 'resume', rid: 3, token: 'x'.repeat(43), tables: [{ tableId: 'thnl-1', lastSeq: 12 }] },
      { type: 'table.join', rid: 4, tableId: 'thnl-1', buyIn: 10_000, waitForBigBlind: true, rulesVersion: '0123456789abcd' },
      { type: 'table.action', rid: 5, tableId: 'thnl-1', actionId: 'a-1', move: { type: 'bet', to: 300 } },
      { type: 'table.action', rid: 6, tableId: '2t7td-1', actionId: 'a-2', move: { type: 'draw', discards: [0, 51] } },
      { type: 'history', rid: 7, cursor: null, limit: 20 },
      { type: 'ping', t: 5 },
    ];
    for (const f of frames) {
      const r = parseClientMessage(JSON.stringify(f));
      expect(r, JSON.stringify(f)).toEqual({ ok: true, message: f });
    }
  });

  it('refuses malformed frames with a code, and names the rid when it can', () => {
    expect(parseClientMessage('{not json')).toMatchObject({ ok: false, code: 'BAD_MESSAGE', rid: null });
    expect(parseClientMessage('[1,2]')).toMatchObject({ ok: false, code: 'BAD_MESSAGE' });
    expect(parseClientMessage('{"type":"launch","rid":9}')).toMatchObject({ ok: false, code: 'UNKNOWN_TYPE', rid: 9 });
    expect(parseClientMessage('{"type":"table.join","rid":4,"tableId":"t","buyIn":1.5,"waitForBigBlind":false,"rulesVersion":"0123456789abcd"}')).toMatchObject({
      ok: false,
      code: 'BAD_MESSAGE',
      rid: 4,
      message: expect.stringContaining('buyIn'),
    });
    // Unknown fields are refused: nothing unexpected is carried through.
    expect(parseClientMessage('{"type":"guest","rid":1,"admin":true}')).toMatchObject({ ok: false, code: 'BAD_MESSAGE' });
    expect(parseClientMessage('{"type":"guest","rid":1,"__proto__":{"x":1}}')).toMatchObject({ ok: false, code: 'BAD_MESSAGE' });
    // A player never names a seat (R-ONEHAND): the operator adds it.
    expect(parseClientMessage('{"type":"table.action","rid":1,"tableId":"t","actionId":"a","move":{"type":"fold","seat":2}}')).toMatchObject({ ok: false });
    expect(parseClientMessage('{"type":"table.action","rid":1,"tableId":"t","actionId":"a","move":{"type":"deal","seat":null,"cards":[1]}}')).toMatchObject({ ok: false });
  });

  it('refuses a frame over the size cap before parsing it', () => {
    const big = JSON.stringify({ type: 'login', rid: 1, username: 'a', password: 'é'.repeat(MAX_CLIENT_FRAME_BYTES) });
    expect(parseClientMessage(big)).toMatchObject({ ok: false, code: 'FRAME_TOO_LARGE' });
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
  });

  it('never throws on mutated frames', () => {
    const rng = prng(7);
    const base = JSON.stringify({ type: 'table.action', rid: 5, tableId: 'thnl-1', actionId: 'a-1', move: { type: 'bet', to: 300 } });
    const alphabet = '{}[]":,0123456789-.eE truefalsnul\\u';
    for (let i = 0; i < 5000; i++) {
      const chars = base.split('');
      const k = 1 + Math.floor(rng() * 4);
      for (let j = 0; j < k; j++) chars[Math.floor(rng() * chars.length)] = alphabet[Math.floor(rng() * alphabet.length)];
      const r = parseClientMessage(chars.join(''));
      expect(typeof r.ok).toBe('boolean');
    }
  });
});

describe('versions', () => {
  it('compares major, minor and patch numerically', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBeGreaterThan(0);
    expect(compareVersions('1.2.3', '1.2.3-beta.1')).toBe(0);
    expect(compareVersions('1.2.3', '1.3.0')).toBeLessThan(0);
  });
});

describe('engine data on the wire', () => {
  it('carries table rules with or without the optional ante payer (R-INFO)', () => {
    const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100, ante: 100 }, { anteBy: 'big-blind' });
    const info = { tableId: 't1', name: 'T', money: 'play' as const, practice: false, variant: 'THNL' as const, stakes: { smallBlind: 50, bigBlind: 100, ante: 100, bringIn: 0, smallBet: 0, bigBet: 0 }, rules, buyIn: { min: 1, max: 2 }, seatsTaken: 0, seatsMax: 6 };
    const texts = { fr: ['Horloge'], en: ['Clock'] };
    roundTrip({ type: 'lobby', rid: null, tables: [info, { ...info, rules: rulesFor('7SJL') }], conditions: { version: conditionsVersion(texts), ...texts } });
    expect(parseServerMessage(JSON.stringify({ type: 'lobby.table', table: { ...info, rules: { ...rules, anteBy: 'nobody' } } }))).toMatchObject({ ok: false });
  });

  it.each(VARIANT_CODES)('%s: every view, every seen action and every record passes the server schema', (v) => {
    for (let seed = 1; seed <= 6; seed++) {
      let seq = 0;
      const final = playHand(v, seed * 7919, (before, a, after) => {
        for (const seat of [0, 1, null]) {
          const seen = actionFor(before, a, seat);
          roundTrip({ type: 'table.event', tableId: 't1', seq: ++seq, event: { type: 'action', action: seen, by: 'player' } });
          roundTrip({
            type: 'table.snapshot',
            rid: null,
            tableId: 't1',
            seq,
            table: {
              tableId: 't1',
              name: 'Table 1',
              money: 'play',
              practice: true,
              rules: after.rules,
              buyIn: { min: 1000, max: 5000 },
              seats: after.players.map((p, i) => (p === null ? null : { name: p, practice: false, stack: after.seats[i].stack, status: 'active', connected: true })),
              handNo: 3,
              hand: handViewFor(after, seat),
              turn: null,
              you: null,
              // Protocol 4: a tournament's table names its tournament.
              tournament: seat === 1 ? { tournamentId: 'mtt-1' } : null,
            },
          });
        }
      });
      for (const seat of [0, 2]) {
        roundTrip({ type: 'table.event', tableId: 't1', seq: ++seq, event: { type: 'handEnd', handNo: 3, record: recordOf(viewFor(final, seat)) } });
      }
    }
  });
});

describe('the rules version a join confirms (R-INFO)', () => {
  const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 });
  const shown = { variant: 'THNL', rules, buyIn: { min: 2000, max: 10_000 } };
  const conditions = conditionsVersion({ fr: ['Horloge'], en: ['Clock'] });

  it('is the same for the same rules whatever the order of their keys (both sides compute it alike)', () => {
    const v = rulesVersion(shown, conditions);
    expect(v).toMatch(/^[0-9a-f]{14}$/);
    const reordered = JSON.parse(JSON.stringify({ buyIn: { max: 10_000, min: 2000 }, rules: Object.fromEntries(Object.entries(rules).reverse()), variant: 'THNL' })) as typeof shown;
    expect(rulesVersion(reordered, conditions)).toBe(v);
  });

  it('changes with anything shown: a stake, the clock, the cave, a reading, the conditions of play', () => {
    const v = rulesVersion(shown, conditions);
    const others = [
      rulesVersion({ ...shown, rules: { ...rules, bigBlind: 200 } }, conditions),
      rulesVersion({ ...shown, rules: { ...rules, actionSeconds: rules.actionSeconds + 1 } }, conditions),
      rulesVersion({ ...shown, rules: { ...rules, timeBankSeconds: rules.timeBankSeconds + 1 } }, conditions),
      rulesVersion({ ...shown, rules: { ...rules, minRaise: 'double' } }, conditions),
      rulesVersion({ ...shown, buyIn: { min: 2000, max: 20_000 } }, conditions),
      rulesVersion(shown, conditionsVersion({ fr: ['Horloge.'], en: ['Clock'] })),
    ];
    for (const o of others) expect(o).not.toBe(v);
    expect(new Set(others).size).toBe(others.length);
  });

  it('is required by table.join, and the lobby carries the conditions of play', () => {
    expect(parseClientMessage(JSON.stringify({ type: 'table.join', rid: 1, tableId: 't', buyIn: 10, waitForBigBlind: false }))).toMatchObject({ ok: false });
    expect(parseClientMessage(JSON.stringify({ type: 'table.join', rid: 1, tableId: 't', buyIn: 10, waitForBigBlind: false, rulesVersion: rulesVersion(shown, conditions) }))).toMatchObject({ ok: true });
    expect(parseServerMessage(JSON.stringify({ type: 'lobby', rid: 1, tables: [] }))).toMatchObject({ ok: false });
  });
});

describe('one Refusal on the wire', () => {
  it('a refusal of the one decision path goes out with every detail, on an action result and on an error frame alike', () => {
    const hand = dealFrom(startHand(tableConfig(makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }), { stacks: [5000, 5000, 5000] })));
    const d = decide(hand, 2, { type: 'check' });
    if (d.ok) throw new Error('a check facing the big blind was accepted');
    const fields = { code: d.code, message: d.message, ...refusalDetails(d) };
    expect(fields).toEqual({ code: 'ILLEGAL_ACTION', message: 'a check cannot answer a bet: call 100 or fold', rule: 'R-TERMS', call: 100 });
    const result = { type: 'table.actionResult', rid: 1, tableId: 't', actionId: 'a', ok: false, replayed: false, ...fields };
    expect(parseServerMessage(JSON.stringify(result))).toEqual({ ok: true, message: result });
    const error = { type: 'error', rid: 2, tableId: 't', ...fields };
    expect(parseServerMessage(JSON.stringify(error))).toEqual({ ok: true, message: error });
    // No undefined detail is written: a closed schema would refuse nothing else, and the frame stays minimal.
    expect(refusalDetails({ rule: undefined, min: 0 })).toStrictEqual({ min: 0 });
  });
});

describe('protocol 4: tournaments as the client plays them', () => {
  const standing = {
    state: 'running',
    level: 3,
    onBreak: false,
    nextChangeInMs: 42_000,
    handForHand: false,
    entries: 180,
    remaining: 97,
    chips: 1_800_000,
    pool: 180_000,
    paid: 27,
    you: { stack: 23_450, rank: 12, rebuy: false, addOn: true, bounties: 400 },
  } as const;
  const result = {
    tournamentId: 'mtt-1',
    name: 'Sunday',
    variant: 'THNL',
    money: 'real',
    format: 'scheduled',
    kinds: 'AG',
    buyIn: 1000,
    fee: 100,
    entries: 180,
    startedAt: 1_767_225_600_000,
    endedAt: 1_767_240_000_000,
    place: 7,
    prize: 5400,
    bounties: 400,
    rebuys: 2,
    addOns: 1,
    reEntries: 0,
    spent: 4400,
  } as const;

  it('carries the standing, why a seat, the bounties at the finish, the results, and a history hand of a tournament', () => {
    roundTrip({ type: 'tournament.state', tournamentId: 'mtt-1', standing });
    roundTrip({ type: 'tournament.state', tournamentId: 'mtt-1', standing: { ...standing, state: 'registering', level: null, nextChangeInMs: null, you: null } });
    for (const why of ['start', 'late', 'balance', 'broken', 'back'] as const) roundTrip({ type: 'tournament.seat', tournamentId: 'mtt-1', tableId: 'mtt-1-t3', seat: 4, moved: why === 'balance' || why === 'broken', why });
    roundTrip({ type: 'tournament.finished', tournamentId: 'mtt-1', place: 7, tied: 3, prize: 5400, bounties: 400 });
    roundTrip({ type: 'tournament.results', rid: 3, results: [result], next: '1767240000000.mtt-1' });
    roundTrip({ type: 'tournament.results', rid: 4, results: [], next: null });
    const record = recordOf(playHand('THNL', 5, () => undefined));
    roundTrip({ type: 'history', rid: 5, hands: [{ handId: 'h1', tableId: 'mtt-1-t3', endedAt: 1, record, tournament: { tournamentId: 'mtt-1', level: 3 } }, { handId: 'h2', tableId: 'c1', endedAt: 1, record, tournament: null }], next: null });
    for (const m of [
      { type: 'tournament.results', rid: 1, cursor: null, limit: 100 },
      { type: 'tournament.results', rid: 1, cursor: '1767240000000.mtt-1', limit: 1 },
      { type: 'table.watch', rid: 2, tableId: 'mtt-1-t3' },
      { type: 'table.unwatch', rid: 3, tableId: 'thnl-1' },
    ]) {
      expect(parseClientMessage(JSON.stringify(m))).toMatchObject({ ok: true });
    }
  });

  it('refuses what protocol 3 sent, and shapes out of range', () => {
    const bad: unknown[] = [
      // Protocol 3's tournament.state (state, level, onBreak at the top) and a seat without its why.
      { type: 'tournament.state', tournamentId: 'mtt-1', state: 'running', level: 0, onBreak: false },
      { type: 'tournament.seat', tournamentId: 'mtt-1', tableId: 'mtt-1-t3', seat: 4, moved: false },
      { type: 'tournament.seat', tournamentId: 'mtt-1', tableId: 'mtt-1-t3', seat: 4, moved: true, why: 'moved' },
      { type: 'tournament.finished', tournamentId: 'mtt-1', place: 7, prize: 5400 },
      // Protocol 4's finish (no `tied`), and a tie of nobody.
      { type: 'tournament.finished', tournamentId: 'mtt-1', place: 7, prize: 5400, bounties: 0 },
      { type: 'tournament.finished', tournamentId: 'mtt-1', place: 7, tied: 0, prize: 5400, bounties: 0 },
      { type: 'tournament.state', tournamentId: 'mtt-1', standing: { ...standing, you: { ...standing.you, rank: 0 } } },
      { type: 'tournament.state', tournamentId: 'mtt-1', standing: { ...standing, chips: -1 } },
      { type: 'tournament.state', tournamentId: 'mtt-1', standing: { ...standing, extra: 1 } },
      { type: 'tournament.results', rid: 1, results: [{ ...result, place: 0 }], next: null },
      { type: 'tournament.results', rid: 1, results: [{ ...result, spent: 1.5 }], next: null },
      { type: 'tournament.results', rid: 1, results: new Array(101).fill(result), next: null },
      { type: 'history', rid: 1, hands: [{ handId: 'h', tableId: 't', endedAt: 1, record: recordOf(playHand('THNL', 5, () => undefined)), tournament: { tournamentId: 'mtt-1', level: -1 } }], next: null },
    ];
    for (const m of bad) expect(parseServerMessage(JSON.stringify(m)), JSON.stringify(m).slice(0, 120)).toMatchObject({ ok: false });
    for (const m of [
      { type: 'tournament.results', rid: 1, cursor: null, limit: 0 },
      { type: 'tournament.results', rid: 1, cursor: null, limit: 101 },
      { type: 'tournament.results', rid: 1, cursor: '', limit: 10 },
      { type: 'tournament.results', rid: 1, limit: 10 },
      { type: 'table.watch', rid: 1 },
      { type: 'table.watch', rid: 1, tableId: 'bad table' },
    ]) {
      expect(parseClientMessage(JSON.stringify(m)), JSON.stringify(m)).toMatchObject({ ok: false });
    }
  });
});
