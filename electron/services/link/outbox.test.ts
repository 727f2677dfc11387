import { describe, expect, it } from 'vitest';
import type { ClientMessage } from '../../../shared/protocol/messages';
import { ActionOutbox } from './outbox';

/** An outbox whose frames go to a list (its neighbour, the connection, is what is replaced here). */
function outbox() {
  const sent: ClientMessage[] = [];
  let rid = 0;
  let ready = true;
  const box = new ActionOutbox({ nextRid: () => ++rid, send: (m) => (sent.push(m), ready), ready: () => ready, refusedNow: () => null, model: () => undefined });
  return { box, sent, setReady: (r: boolean) => (ready = r) };
}

const answer = (m: ClientMessage, ok = true) => {
  if (m.type !== 'table.action') throw new Error(m.type);
  return { type: 'table.actionResult' as const, rid: m.rid, tableId: m.tableId, actionId: m.actionId, ok, replayed: false };
};

describe('the action outbox: the one owner of "pending"', () => {
  it('holds one decision per table: the same click again waits for it, another move is refused, other tables are free', async () => {
    const { box, sent } = outbox();
    expect(box.pendingFor('t1')).toBeNull();
    const first = box.act('t1', { type: 'call' }, { actionId: 'a1' });
    expect(box.pendingFor('t1')).toEqual({ actionId: 'a1', move: { type: 'call' } });
    // A double click: the same move under a new id is the same decision, not sent twice.
    expect(box.act('t1', { type: 'call' }, { actionId: 'a2' })).toBe(first);
    expect(await box.act('t1', { type: 'fold' }, { actionId: 'a3' })).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN', local: true, actionId: 'a3' });
    const other = box.act('t2', { type: 'check' }, { actionId: 'b1' });
    expect(box.pendingFor('t2')).toEqual({ actionId: 'b1', move: { type: 'check' } });
    expect(sent.map((m) => (m.type === 'table.action' ? m.actionId : m.type))).toEqual(['a1', 'b1']);
    box.result(answer(sent[0]));
    expect(await first).toEqual({ ok: true, actionId: 'a1', replayed: false });
    expect(box.pendingFor('t1')).toBeNull();
    expect(box.pendingFor('t2')).not.toBeNull();
    box.result(answer(sent[1], false));
    expect(await other).toMatchObject({ ok: false, actionId: 'b1' });
    expect(box.pending()).toEqual([]);
  });

  it('keeps an action over a dropped connection and sends it again with the same id; gives up with the link', async () => {
    const { box, sent, setReady } = outbox();
    const a = box.act('t1', { type: 'check' }, { actionId: 'a1' });
    box.dropped();
    expect(box.pendingFor('t1')).toEqual({ actionId: 'a1', move: { type: 'check' } });
    box.resend();
    expect(sent.filter((m) => m.type === 'table.action').map((m) => (m as { actionId: string }).actionId)).toEqual(['a1', 'a1']);
    setReady(false);
    const b = box.act('t2', { type: 'fold' }, { actionId: 'b1' });
    box.failAll('OFFLINE', 'the link is closed');
    expect(await a).toMatchObject({ ok: false, code: 'OFFLINE' });
    expect(await b).toMatchObject({ ok: false, code: 'OFFLINE' });
    expect(box.pendingFor('t1')).toBeNull();
  });
});
