// French first (SPEC.md §5): every user-visible string of the renderer lives here and in en.ts.
import rules from './rules.fr';
import table from './table.fr';
import update from './update.fr';

export default {
  rules,
  table,
  update,
  app: {
    name: 'Cercle',
    tagline: 'Poker en ligne',
    loading: 'Chargement…',
    hostUnreachable: "Impossible de joindre le client Cercle. Ouvrez l'adresse affichée par « npm start ».",
  },
  nav: {
    lobby: 'Salon',
    rules: 'Règles',
    language: 'Langue',
    switchTo: 'English',
    switchToLabel: 'Passer en anglais',
  },
  lobby: {
    title: 'Salon',
    subtitle: 'Tables de cash game et tournois',
    empty: 'Aucune table ouverte pour le moment.',
    rulesLink: 'Lire les règles des jeux',
  },
  status: {
    balance: 'Solde',
    session: 'Session',
    today: "Aujourd'hui",
    unknown: '—',
    host: { electron: 'Application', browser: 'Navigateur' },
    dataDir: 'Données : {dir}',
  },
  responsible: {
    // Mandatory French warning for gambling communications (code de la sécurité intérieure, art. D. 320-9).
    warning: 'Jouer comporte des risques : endettement, isolement, dépendance. Pour être aidé, appelez le 09 74 75 13 13 (appel non surtaxé).',
    helpLink: 'Joueurs Info Service',
  },
  settings: {
    saveFailed: "Le réglage n'a pas pu être enregistré.",
  },
};
