import { describe, expect, it } from 'vitest';
import { scrollToRow, visibleWindow, wantsMore } from './virtual';

describe('virtual list', () => {
  it('draws only the rows in view and a few either side', () => {
    const w = visibleWindow(0, 300, 30, 1_000_000, 5);
    expect(w).toEqual({ start: 0, end: 15, offset: 0, height: 30_000_000 });
    const mid = visibleWindow(30 * 500_000, 300, 30, 1_000_000, 5);
    expect(mid.start).toBe(499_995);
    expect(mid.end).toBe(500_015);
    expect(mid.offset).toBe(499_995 * 30);
  });

  it('stays inside the list when scrolled past its end', () => {
    const w = visibleWindow(99_999, 300, 30, 20, 2);
    expect(w.end).toBe(20);
    expect(w.start).toBe(8);
    expect(visibleWindow(0, 300, 30, 0)).toEqual({ start: 0, end: 0, offset: 0, height: 0 });
  });

  it('asks for more near the end only', () => {
    expect(wantsMore(visibleWindow(0, 300, 30, 200, 5), 200, true, false)).toBe(false);
    expect(wantsMore(visibleWindow(30 * 170, 300, 30, 200, 5), 200, true, false)).toBe(true);
    expect(wantsMore(visibleWindow(30 * 170, 300, 30, 200, 5), 200, false, false)).toBe(false);
    expect(wantsMore(visibleWindow(30 * 170, 300, 30, 200, 5), 200, true, true)).toBe(false);
  });

  it('scrolls a row into view', () => {
    expect(scrollToRow(10, 0, 300, 30)).toBe(30);
    expect(scrollToRow(2, 300, 300, 30)).toBe(60);
    expect(scrollToRow(12, 300, 300, 30)).toBe(300);
  });
});
