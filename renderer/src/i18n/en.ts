import type fr from './fr';
import rules from './rules.en';
import table from './table.en';
import update from './update.en';

// English mirrors fr.ts key for key: the type below makes a missing or extra key a type error.
const en: typeof fr = {
  rules,
  table,
  update,
  app: {
    name: 'Cercle',
    tagline: 'Online poker',
    loading: 'Loading…',
    hostUnreachable: 'Cannot reach the Cercle client. Open the address printed by "npm start".',
  },
  nav: {
    lobby: 'Lobby',
    rules: 'Rules',
    language: 'Language',
    switchTo: 'Français',
    switchToLabel: 'Switch to French',
  },
  lobby: {
    title: 'Lobby',
    subtitle: 'Cash games and tournaments',
    empty: 'No table is open yet.',
    rulesLink: 'Read the rules of the games',
  },
  status: {
    balance: 'Balance',
    session: 'Session',
    today: 'Today',
    unknown: '—',
    host: { electron: 'Desktop app', browser: 'Browser' },
    dataDir: 'Data: {dir}',
  },
  responsible: {
    warning: 'Gambling involves risks: debt, isolation, addiction. For help, call 09 74 75 13 13 (free call, France).',
    helpLink: 'Joueurs Info Service',
  },
  settings: {
    saveFailed: 'The setting could not be saved.',
  },
};
export default en;
