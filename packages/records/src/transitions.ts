import type { Prisma } from "@scan/db";

/** A Prisma client or an interactive transaction's client: every operation runs on either. */
export type DbClient = Prisma.TransactionClient;

/**
 * One named move of a row: the states it may start from, and the state it leaves the row in
 * (`null`: the row keeps its state, only columns change). A row in any other state is left as
 * it is, and the operation says so.
 */
export type Move<State extends string> = { readonly from: readonly State[]; readonly to: State | null };

/** Every move of one kind of row, by the name of the operation that makes it. */
export type Transitions<State extends string> = Readonly<Record<string, Move<State>>>;

/** The states a move may start from, for a query's `where`. */
export const startStates = <State extends string>(move: Move<State>): State[] => [...move.from];

/** Whether `move` may start from `state`. */
export const allows = <State extends string>(move: Move<State>, state: State): boolean => move.from.includes(state);
