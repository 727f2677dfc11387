/**
 * Reads something again every `ms` while it is shown (the tournament lobby every 5 s
 * while its tab is shown, not when hidden): at once on start, then on each tick; stopped while the
 * page is hidden (the window minimised, another tab) and read again at once when it shows; `stop`
 * when the view goes (its tab left). The page is passed in so the rule is tested without a browser.
 */
export interface PageVisibility {
  readonly visibilityState: string;
  addEventListener(type: 'visibilitychange', fn: () => void): void;
  removeEventListener(type: 'visibilitychange', fn: () => void): void;
}

export interface Poller {
  stop(): void;
}

export function pollWhileShown(page: PageVisibility, read: () => void, ms: number): Poller {
  let timer: ReturnType<typeof setInterval> | null = null;
  const run = (): void => {
    if (timer !== null || page.visibilityState === 'hidden') return;
    read();
    timer = setInterval(read, ms);
  };
  const pause = (): void => {
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
  const onVisibility = (): void => (page.visibilityState === 'hidden' ? pause() : run());
  page.addEventListener('visibilitychange', onVisibility);
  run();
  return {
    stop: () => {
      page.removeEventListener('visibilitychange', onVisibility);
      pause();
    },
  };
}
