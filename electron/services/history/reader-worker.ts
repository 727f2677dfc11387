/**
 * The history reader's thread (reader.ts): a read-only connection to the history file
 * and the reads of the client API, answered one at a time in order. Started by reader.ts directly
 * (tests, development) or through worker.ts's bundle (history-worker.cjs) when `workerData` says
 * `cercleHistoryReader`.
 */
import { parentPort } from 'node:worker_threads';
import { playerStats, resultsSeries, resultsSessions, tournamentHistory, tournamentResults } from './results';
import type { ReadApi, ReadCall, ReaderData, ReadRequest, ReadResponse } from './reader';
import { HistoryStore } from './store';

type Handlers = { [K in ReadCall]: (...args: ReadApi[K]['args']) => ReadApi[K]['result'] };

export function runReader(data: ReaderData): void {
  const port = parentPort;
  if (!port) return;
  let store: HistoryStore | null = null;
  const open = (): HistoryStore => (store ??= HistoryStore.open(data.file, { readonly: true, planThreshold: data.planThreshold }));
  const handlers: Handlers = {
    page: (filter, req) => open().page(filter, req),
    hand: (handId) => open().getHand(handId),
    series: (filter, maxPoints) => resultsSeries(open(), filter, maxPoints),
    sessions: (filter, gapMinutes) => resultsSessions(open(), filter, gapMinutes),
    stats: (filter) => playerStats(open(), filter),
    tournaments: (a) => tournamentHistory(open(), a),
    tournamentResults: (a) => tournamentResults(open(), a),
    forget: () => {
      store?.forgetNames();
      return null;
    },
  };
  const answered = data.answered ? new Int32Array(data.answered) : null;
  port.on('message', (m: ReadRequest) => {
    let reply: ReadResponse;
    try {
      const fn = handlers[m.call] as (...a: unknown[]) => unknown;
      if (typeof fn !== 'function') throw new Error(`unknown history read ${String(m.call)}`);
      reply = { id: m.id, ok: true, value: fn(...m.args) };
    } catch (e) {
      reply = { id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    // Counted before it is sent: once main holds an answer, the count includes it (a count taken after
    // the send raced main's read of it, and a test saw one answer counted twice as 'before' and 'after').
    if (answered) Atomics.add(answered, 0, 1);
    port.postMessage(reply);
    if (answered) Atomics.notify(answered, 0);
  });
  port.on('close', () => store?.close());
}
