// The results screens' messages (fr); en mirrors fr key for key.
export default {};
