// The table screen's messages (en). Filled by the table components' work; mirrors table.fr.ts key for key.
export default {};
