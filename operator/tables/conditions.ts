/**
 * The conditions under which bets are made (R-RULES, D art. 3 and 8 II 2°), written
 * from the settings the tables actually run with (`tableSettings`, streams.ts) and from what the table
 * code does (`timeoutAction`, `cancelHand`, `leave`, `detach`), in French then English. The lobby
 * serves them with their version (shared/protocol/conditions.ts); a join confirms them with the
 * table's rules (R-INFO, `rulesVersion`).
 */
import { conditionsVersion, type PlayConditions } from '../../shared/protocol/conditions';
import { tableSettings, type TableOptions } from './streams';

function duration(ms: number, lang: 'fr' | 'en'): string {
  const s = Math.round(ms / 1000);
  if (s >= 60 && s % 60 === 0) {
    const m = s / 60;
    return lang === 'fr' ? `${m} minute${m > 1 ? 's' : ''}` : `${m} minute${m > 1 ? 's' : ''}`;
  }
  return lang === 'fr' ? `${s} seconde${s > 1 ? 's' : ''}` : `${s} second${s === 1 ? '' : 's'}`;
}

function count(n: number, lang: 'fr' | 'en'): string {
  const fr = ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq'];
  const en = ['zero', 'one', 'two', 'three', 'four', 'five'];
  return (lang === 'fr' ? fr : en)[n] ?? String(n);
}

/** The conditions of play of tables run with `options` (the operator's `table` options). */
export function playConditions(options: Partial<TableOptions> = {}): PlayConditions {
  const s = tableSettings(options);
  const grace = { fr: duration(s.disconnectGraceMs, 'fr'), en: duration(s.disconnectGraceMs, 'en') };
  const fr = [
    "Horloge : à votre tour, vous disposez du temps d'action de la table ; s'il s'écoule, votre réserve de temps prend le relais. Chaque table affiche son temps d'action et sa réserve dans le salon et avant de vous asseoir. La réserve vous est donnée en vous asseyant ; le temps que vous y prenez est décompté et ne revient pas.",
    "Temps écoulé : quand le temps d'action et la réserve sont épuisés, l'opérateur joue pour vous : il parle (check) si c'est possible, sinon il se couche ; en Stud, le bring-in dû est misé ; à un tirage, aucune carte n'est changée ; à l'abattage, la main est montrée ou jetée selon la règle. Votre réserve passe alors à zéro.",
    `Mise à l'écart : après ${count(s.maxTimeouts, 'fr')} temps écoulés de suite, vous êtes mis en pause (vous ne recevez plus de cartes) jusqu'à ce que vous reveniez au jeu. Une décision prise à temps remet le compte à zéro.`,
    `Déconnexion : si votre connexion tombe, votre place vous est gardée ${grace.fr}. Pendant ce temps l'horloge court comme d'habitude (temps écoulés compris). Passé ce délai, vous quittez la table à la fin de la main en cours et votre tapis revient sur votre compte.`,
    "Quitter la table : vous pouvez partir à tout moment ; si vous êtes dans une main, l'opérateur parle ou se couche pour vous à votre tour et vous partez à la fin de la main, votre tapis revenant sur votre compte.",
    "Main annulée : une main est annulée si la table s'arrête (arrêt de l'opérateur), si un incident technique l'interrompt, ou si l'opérateur redémarre après s'être arrêté sans fermer ses tables. Toutes les mises de la main reviennent alors à chaque joueur, aucun prélèvement n'est fait, et chaque tapis redevient celui du début de la main ; la main ne figure dans aucun historique.",
  ];
  const en = [
    "Clock: on your turn you have the table's action time; when it runs out, your time bank takes over. Each table shows its action time and time bank in the lobby and before you sit. The time bank is given when you sit down; the time you take from it is spent and does not come back.",
    "Time-out: when the action time and the time bank are used up, the operator acts for you: it checks if it can, otherwise it folds; in Stud the bring-in you owe is posted; at a draw no card is changed; at the showdown the hand is shown or mucked as the rules say. Your time bank is then set to zero.",
    `Sitting out: after ${count(s.maxTimeouts, 'en')} time-outs in a row you are sat out (you are no longer dealt in) until you sit back in. A decision made in time resets the count.`,
    `Disconnection: if your connection drops, your seat is kept for ${grace.en}. Meanwhile the clock runs as usual (time-outs included). After that, you leave the table at the end of the hand in progress and your stack goes back to your account.`,
    'Leaving: you may leave at any time; if you are in a hand, the operator checks or folds for you on your turn and you leave when the hand ends, your stack going back to your account.',
    'Voided hand: a hand is voided if the table stops (the operator shuts down), if a technical fault stops it, or if the operator restarts after stopping without closing its tables. Every bet of the hand then goes back to its player, no rake is taken, and each stack is again what it was when the hand began; the hand is in no history.',
  ];
  return { version: conditionsVersion({ fr, en }), fr, en };
}
