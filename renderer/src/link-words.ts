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

/**
 * The link's state and cause in the player's words (issue 13 defect 2, defect 9: French first). The
 * link gives its cause as a code (`why`, shared/api LINK_WHY); its English `reason` is for the logs and
 * never shown. `retryAt` is when the next try comes (ms), for the countdown.
 */
export function linkWords(l: LinkStatusView | null, t: Translate, now: number, retryAt: number | null): LinkWords {
  if (!l) return { text: t('link.starting'), title: '', reconnect: false };
  const title = l.why === null ? '' : t(`link.why.${l.why}`, { n: l.attempt });
  if (l.state === 'reconnecting' && retryAt !== null) {
    return { text: t('link.reconnectingIn', { s: Math.max(0, Math.ceil((retryAt - now) / 1000)) }), title, reconnect: false };
  }
  if (l.state === 'offline') {
    const text = l.why === null ? t('link.offline') : t('link.offlineWhy', { why: t(`link.whyShort.${l.why}`) });
    // Closed by Cercle itself (quitting, switching operator): a new link follows. Settings missing: Settings reconnects on save.
    return { text, title, reconnect: l.why !== 'closed' && l.why !== 'settings' };
  }
  return { text: t(`link.${l.state}`), title, reconnect: false };
}
