// The updater's messages (fr); mirrors update.en.ts key for key.
export default {
  label: 'Mise à jour de Cercle',
  available: 'Version {version} disponible : téléchargement en cours…',
  downloading: 'Téléchargement de la version {version} : {percent} %',
  downloaded: 'Version {version} prête : elle s’installera au prochain redémarrage.',
  restartNow: 'Redémarrer maintenant',
  installing: 'Redémarrage…',
  installRefused: 'Impossible d’installer maintenant : la mise à jour se fera au prochain redémarrage.',
  error: 'La mise à jour a échoué.',
  retry: 'Réessayer',
};
