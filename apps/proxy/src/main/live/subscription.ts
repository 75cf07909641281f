/** A subscription held while it is wanted (a subscriber with at least one client), taken and let go once each time. */
export type Subscribe = () => () => void;

export function subscriptionWhile(subscribe: Subscribe): (wanted: boolean) => void {
  let unsubscribe: (() => void) | null = null;
  return (wanted) => {
    if (wanted) unsubscribe ??= subscribe();
    else if (unsubscribe) {
      unsubscribe();
      unsubscribe = null;
    }
  };
}
