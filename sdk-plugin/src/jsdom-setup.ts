/**
 * jsdom lacks a few browser APIs that Blueprint, dockview and React Flow use (ResizeObserver,
 * matchMedia): minimal stand-ins for component tests. Use it as a vitest setup file:
 * `setupFiles: ['@decisio/sdk-plugin/jsdom-setup.ts']`.
 */
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
const g = globalThis as Record<string, unknown>;
g.ResizeObserver ??= ResizeObserverStub;
if (typeof window !== 'undefined' && !window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

export {};
