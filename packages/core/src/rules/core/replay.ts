/** `replay(events) = events.reduce(evolve, initial)`: the one way state is rebuilt. */
export function replay<S, E>(evolve: (state: S, event: E) => S, initial: S, events: readonly E[]): S {
  let state = initial;
  for (const event of events) state = evolve(state, event);
  return state;
}
