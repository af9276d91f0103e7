/**
 * Disposables and events: the two primitives every contribution of the SDK is built on.
 * Every registration returns a {@link Disposable}; every observable change is an
 * {@link Event} named `onDidX` (after the change) or `onWillX` (before it).
 */

/** Something that holds a resource (a listener, a registration) until `dispose()` is called. */
export interface Disposable {
  /** Releases the resource. Calling it more than once has no further effect. */
  dispose(): void;
}

/** Wraps a callback into a {@link Disposable} that runs it at most once. */
export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/**
 * A bag of disposables released together (in reverse order of addition). Adding to a store
 * that is already disposed disposes the new item at once.
 */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  /** Adds `d` and returns it, so that `const x = store.add(make())` reads naturally. */
  add<T extends Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.push(d);
    return d;
  }

  /** `true` once {@link DisposableStore.dispose} has run. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Disposes every item, last added first. Errors are collected and rethrown together. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const d of this.items.reverse()) {
      try {
        d.dispose();
      } catch (e) {
        errors.push(e);
      }
    }
    this.items = [];
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed');
  }
}

/** A subscribable event: call it with a listener, get back a {@link Disposable} to unsubscribe. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/**
 * The producing side of an {@link Event}. Keep the emitter private and expose `emitter.event`
 * as a public `onDidX` property.
 *
 * @example
 * ```ts
 * private readonly didChange = new Emitter<string>();
 * readonly onDidChange = this.didChange.event;
 * ```
 */
export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  /** The public side: subscribe with a listener. */
  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  /** Calls every listener with `value`, in subscription order. A throwing listener does not stop the others; the first error is rethrown after all ran. */
  fire(value: T): void {
    let first: unknown;
    let failed = false;
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch (e) {
        if (!failed) first = e;
        failed = true;
      }
    }
    if (failed) throw first;
  }

  /** Number of current listeners (useful in tests to check that everything was disposed). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Removes every listener. */
  dispose(): void {
    this.listeners.clear();
  }
}
