declare const txBrand: unique symbol;

/**
 * A transaction in progress. Services receive it from a `Transact` and hand it to stores; only stores open it
 * (`queryable` in db.ts), so no service learns the query builder behind it.
 */
export interface Tx {
  readonly [txBrand]: true;
}

/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
export type Transact = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;
