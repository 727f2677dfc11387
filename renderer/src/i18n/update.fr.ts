// The updater's messages (fr); mirrors update.en.ts key for key.
export default {};
