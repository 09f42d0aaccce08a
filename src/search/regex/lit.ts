/** A fixed-length byte pattern: the allowed bytes at each position (`(?i)ab` is [[a, A], [b, B]]). */
export type Lit = number[][];
