/**
 * The link's events to its callers (`OperatorLink.on`): listeners by event name, each told in turn;
 * one that throws is logged and the others are still told (a caller's fault never stops the link).
 */
export class Emitter<E extends object> {
  private readonly listeners = new Map<keyof E, Set<(p: never) => void>>();

  constructor(private readonly log: (line: string) => void) {}

  /** Listens to `event`; the function returned stops listening. */
  on<K extends keyof E>(event: K, listener: (payload: E[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends keyof E>(event: K, payload: E[K]): void {
    for (const l of this.listeners.get(event) ?? []) {
      try {
        (l as (payload: E[K]) => void)(payload);
      } catch (e) {
        this.log(`a ${String(event)} listener failed: ${(e as Error)?.stack ?? String(e)}`);
      }
    }
  }
}
