/** One row (id 1): the number the database moves on every change to a cached account fact (migration 0006). */
export interface AccountVersionTable {
  id: number;
  version: number;
}
