/**
 * The history list's pages: keyset paging through `historyPage` (each page asks from the previous
 * page's `next` cursor, so a page costs the same anywhere in a million hands). A new filter or sort
 * starts over; an answer to an older query is dropped. Rows are kept in a plain array the view
 * reads through a version number, so a long list is not made deeply reactive.
 */
import type { CercleApi, HandSummaryView, HistoryFilter } from '../../../shared/api/contract';

export type SortKey = 'time' | 'net';
export type SortDir = 'asc' | 'desc';

export interface Query {
  filter: HistoryFilter;
  sort: SortKey;
  dir: SortDir;
}

export const PAGE_SIZE = 100;

export class HistoryPager {
  rows: HandSummaryView[] = [];
  private ids = new Set<string>();
  private next: string | null = null;
  private done = true;
  private generation = 0;
  private inFlight: Promise<void> | null = null;
  private query: Query | null = null;
  /** The last refusal of the store (its reason), null when fine. */
  error: string | null = null;

  constructor(
    private readonly api: Pick<CercleApi, 'historyPage'>,
    /** Called whenever rows, loading or error change. */
    private readonly changed: () => void = () => {},
    private readonly pageSize = PAGE_SIZE,
  ) {}

  get loading(): boolean {
    return this.inFlight !== null;
  }

  get hasMore(): boolean {
    return !this.done;
  }

  /** Starts over with this query and loads its first page. */
  reset(query: Query): Promise<void> {
    this.generation++;
    this.query = query;
    this.rows = [];
    this.ids = new Set();
    this.next = null;
    this.done = false;
    this.error = null;
    this.inFlight = null;
    this.changed();
    return this.more();
  }

  /** Loads the next page (no-op while one is loading or when there is no more). */
  more(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.done || this.query === null) return Promise.resolve();
    const gen = this.generation;
    const q = this.query;
    const p = this.api
      .historyPage({ filter: q.filter, sort: q.sort, dir: q.dir, limit: this.pageSize, cursor: this.next })
      .then(
        (r) => {
          if (gen !== this.generation) return;
          if (!r.ok) {
            this.error = r.reason ?? 'refused';
            this.done = true;
            return;
          }
          // Keyset pages do not overlap; a hand stored twice is still shown once.
          for (const h of r.hands) {
            if (this.ids.has(h.handId)) continue;
            this.ids.add(h.handId);
            this.rows.push(h);
          }
          this.next = r.next;
          this.done = r.next === null;
        },
        (e: unknown) => {
          if (gen !== this.generation) return;
          this.error = e instanceof Error ? e.message : String(e);
          this.done = true;
        },
      )
      .finally(() => {
        if (gen !== this.generation) return;
        this.inFlight = null;
        this.changed();
      });
    this.inFlight = p;
    this.changed();
    return p;
  }
}
