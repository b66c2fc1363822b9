/**
 * The idiom of the project's state machines (docs/order-states.md, docs/request-states.md): a table that gives each
 * event the states it may be taken in (`from`) and the state it leads to (`to`). lib/order-machine.ts and
 * lib/request-machine.ts are such tables; the services write a state only where the table allows it, conditionally
 * on the state they read.
 */

/** One row of a transition table: the states an event may be taken in, and the state it leads to. */
export type Transition<S extends string> = { readonly from: readonly S[]; readonly to: S };

/** The state `event` leads to from `state` in `table`, or null when the table does not allow it there. */
export function nextState<S extends string, E extends string>(
  table: Readonly<Record<E, Transition<S>>>,
  state: S,
  event: E,
): S | null {
  const t = table[event];
  return t.from.includes(state) ? t.to : null;
}
