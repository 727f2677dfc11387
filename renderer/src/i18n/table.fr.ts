// The table screen's messages (fr). Filled by the table components' work; mirrors table.en.ts key for key.
export default {};
