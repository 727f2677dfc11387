/**
 * The player's results (R-TRACKER, R-RESULTS): the tracker, fed by each followed table's model as
 * hands end and chips move, its view (this session, today) pushed after every change; a period's
 * totals; and the reads the results page makes off the main thread (the graph's lines, the sessions,
 * the statistics, the tournaments' results) through the history's reader.
 */
import type { CallArgs, CallResult, Handlers, TrackerView } from '../../../shared/api';
import type { HistoryReader } from '../history/reader';
import type { Tracker } from '../history/tracker';
import type { OperatorLink } from '../link/link';
import type { ClientCoreOptions } from './options';
import type { ClientPushes } from './pushes';

export interface ClientResultsOptions {
  tracker: Tracker;
  reader: HistoryReader;
  broadcast: ClientCoreOptions['broadcast'];
  pushes: ClientPushes;
  /** The level a tournament is at now: a tournament table's hands carry the level at their start. */
  levelOf: (tournamentId: string) => number | null;
}

type ResultCalls = 'tracker' | 'results' | 'resultsSeries' | 'resultsSessions' | 'playerStats' | 'tournamentResults';

export class ClientResults {
  readonly tracker: Tracker;

  constructor(private readonly o: ClientResultsOptions) {
    this.tracker = o.tracker;
    o.pushes.provide('tracker', () => o.broadcast('tracker', this.trackerView()));
    this.tracker.onChange(() => o.pushes.schedule('tracker'));
  }

  handlers(): Pick<Handlers, ResultCalls> {
    const reader = this.o.reader;
    return {
      tracker: async () => this.trackerView(),
      results: async (a) => this.period(a),
      resultsSeries: (a) => reader.call('series', a.filter, a.maxPoints),
      resultsSessions: (a) => reader.call('sessions', a.filter, a.gapMinutes),
      playerStats: (a) => reader.call('stats', a.filter),
      tournamentResults: (a) => reader.call('tournamentResults', a),
    };
  }

  /**
   * Follows a new link: the tracker is fed by the tables' models, not the transport; each model gets it
   * as it is made, before any frame reaches it.
   */
  attach(link: OperatorLink): () => void {
    return link.on('model', (model) => model.feed(this.tracker, this.o.levelOf));
  }

  trackerView(): TrackerView {
    const s = this.tracker.session();
    const today = this.tracker.today();
    return {
      session: { since: s.since, real: s.real, play: s.play, groups: s.groups },
      today: today.ok ? { from: today.from, to: today.to, real: today.real, play: today.play, groups: today.groups } : null,
    };
  }

  /** A period's totals, grouped as asked. */
  period(a: CallArgs<'results'>): CallResult<'results'> {
    const r = this.tracker.period(a.from, a.to, a.groupBy);
    if (!r.ok) return { ok: false, reason: r.reason.slice(0, 2000) };
    return { ok: true, from: r.from, to: r.to, real: r.real, play: r.play, groups: r.groups };
  }
}
