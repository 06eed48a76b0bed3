/** The package ships no types; this is the part of its API the batched destination uses. */
declare module 'on-exit-leak-free' {
  /** Calls `fn(obj, 'exit')` when the process exits, while `obj` is still reachable (held weakly). */
  export function register<T extends object>(obj: T, fn: (obj: T, event: 'exit') => void): void;
  export function unregister(obj: object): void;
  const onExit: { register: typeof register; unregister: typeof unregister };
  export default onExit;
}
