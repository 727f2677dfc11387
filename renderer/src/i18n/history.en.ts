// The history screens' messages (en); en mirrors fr key for key.
export default {};
