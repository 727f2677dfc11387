// The updater's messages (en); mirrors update.fr.ts key for key.
export default {};
