import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollWhileShown, type PageVisibility } from './poll';

class FakePage implements PageVisibility {
  visibilityState = 'visible';
  private fns = new Set<() => void>();
  addEventListener(_: 'visibilitychange', fn: () => void): void {
    this.fns.add(fn);
  }
  removeEventListener(_: 'visibilitychange', fn: () => void): void {
    this.fns.delete(fn);
  }
  set(state: 'visible' | 'hidden'): void {
    this.visibilityState = state;
    for (const fn of this.fns) fn();
  }
  get listeners(): number {
    return this.fns.size;
  }
}

describe('pollWhileShown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reads at once and every period while shown, nothing while hidden, at once when shown again, nothing after stop', () => {
    const page = new FakePage();
    const read = vi.fn();
    const p = pollWhileShown(page, read, 5000);
    expect(read).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(15_000);
    expect(read).toHaveBeenCalledTimes(4);
    page.set('hidden');
    vi.advanceTimersByTime(60_000);
    expect(read).toHaveBeenCalledTimes(4);
    page.set('visible');
    expect(read).toHaveBeenCalledTimes(5);
    page.set('visible'); // a second "visible" does not start a second timer
    vi.advanceTimersByTime(5000);
    expect(read).toHaveBeenCalledTimes(6);
    p.stop();
    expect(page.listeners).toBe(0);
    vi.advanceTimersByTime(60_000);
    page.set('visible');
    expect(read).toHaveBeenCalledTimes(6);
  });

  it('started on a hidden page reads nothing until it shows', () => {
    const page = new FakePage();
    page.visibilityState = 'hidden';
    const read = vi.fn();
    pollWhileShown(page, read, 5000);
    vi.advanceTimersByTime(30_000);
    expect(read).not.toHaveBeenCalled();
    page.set('visible');
    expect(read).toHaveBeenCalledTimes(1);
  });
});
