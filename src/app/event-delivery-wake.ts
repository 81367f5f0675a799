import type { Store, TxStore } from '../ports/store.js';

/**
 * The store as this process's use cases see it when it delivers events: each commit that recorded
 * events wakes the delivery loop (`kick`), so a webhook leaves within milliseconds of its change
 * instead of at the loop's next idle look. Events other processes record are heard by that look.
 */
export function wakeOnRecord(store: Store, kick: () => void): Store {
  const recording = <S extends Pick<TxStore, 'recordOutboundEvents'>>(target: S, recorded: () => void): S['recordOutboundEvents'] => {
    return async (events, now) => {
      await target.recordOutboundEvents(events, now);
      if (events.length > 0) recorded();
    };
  };
  return {
    ...store,
    // Outside a transaction the write has committed when it returns.
    recordOutboundEvents: recording(store, kick),
    transaction: async (work) => {
      let recorded = false;
      const result = await store.transaction((tx) => work({ ...tx, recordOutboundEvents: recording(tx, () => (recorded = true)) }));
      if (recorded) kick(); // after the commit: the loop's claim sees the deliveries
      return result;
    },
  };
}
