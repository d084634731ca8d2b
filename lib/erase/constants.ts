/** Rows per erasure statement: each is its own short transaction, like cleanup's. */
export const ERASE_BATCH_SIZE = 5_000;
