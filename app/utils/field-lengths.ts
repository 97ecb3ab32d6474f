// How long a typed field may be: the zod schemas enforce these, and the field rules print them
// as maxLength. Free of zod, so browser code may import it.

export const MAX_LENGTH = { name: 100, email: 254, phone: 20, message: 5000 } as const;
