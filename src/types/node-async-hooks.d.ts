// workerd implements node:async_hooks' AsyncLocalStorage (nodejs_compat); the part this project uses.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, callback: () => R): R;
  }
}
