/**
 * The Redux store: the base api's reducer and middleware, with the host transport in the
 * thunk extra argument (see `HostApiExtra` in the SDK).
 */
import { configureStore } from '@reduxjs/toolkit';
import { baseApi, type HostApiExtra } from '@decisio/sdk-plugin';

/** Creates the workbench store. */
export function createWorkbenchStore(extra: HostApiExtra) {
  return configureStore({
    reducer: { [baseApi.reducerPath]: baseApi.reducer },
    middleware: (gdm) => gdm({ thunk: { extraArgument: extra } }).concat(baseApi.middleware),
  });
}

/** The store type. */
export type WorkbenchStore = ReturnType<typeof createWorkbenchStore>;
