import type { LinkStatusView } from '../../shared/api';

type Translate = (key: string, params?: Record<string, unknown>) => string;

/** What the status bar says of the operator link. */
export interface LinkWords {
  text: string;
  /** The tooltip: what happened and what to do, in the player's language ('' when all is well). */
  title: string;
  /** « Reconnecter » is offered: the link is offline and trying again could help. */
  reconnect: boolean;
}

/** Whole seconds from `now` to `at`, never below 0 (the countdowns). */
const secondsTo = (at: number, now: number): number => Math.max(0, Math.ceil((at - now) / 1000));

/**
 * The links' state and cause in the player's words (French first): the
 * page's link to the host first (`host`: up, or gone with its next try), then the operator link. That
 * link gives its cause as a code (`why`, shared/api LINK_WHY); its English `reason` is for the logs and
 * never shown. `retryAt` is when the operator link's next try comes (ms), for the countdown.
 */
export function linkWords(l: LinkStatusView | null, host: { up: boolean; retryAt: number | null }, t: Translate, now: number, retryAt: number | null): LinkWords {
  if (!host.up) return { text: t('link.hostGone', { s: secondsTo(host.retryAt ?? now, now) }), title: t('link.hostGoneHint'), reconnect: false };
  if (!l) return { text: t('link.starting'), title: '', reconnect: false };
  const title = l.why === null ? '' : t(`link.why.${l.why}`, { n: l.attempt });
  if (l.state === 'reconnecting' && retryAt !== null) {
    return { text: t('link.reconnectingIn', { s: secondsTo(retryAt, now) }), title, reconnect: false };
  }
  if (l.state === 'offline') {
    const text = l.why === null ? t('link.offline') : t('link.offlineWhy', { why: t(`link.whyShort.${l.why}`) });
    // Closed by Cercle itself (quitting, switching operator): a new link follows. Settings missing: Settings reconnects on save.
    return { text, title, reconnect: l.why !== 'closed' && l.why !== 'settings' };
  }
  return { text: t(`link.${l.state}`), title, reconnect: false };
}
