/**
 * The two ends of a message channel, whatever carries it: a browser MessagePort or Worker, or
 * node's worker_threads. Only structured-cloneable data crosses it.
 */
export interface Endpoint {
  post(message: unknown, transfer?: Transferable[]): void;
  listen(handler: (message: unknown) => void): () => void;
}

interface EventTargetPort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  start?(): void;
}

/** A browser MessagePort or worker scope, or node's MessagePort (which is an EventTarget too). */
export function endpointOf(port: EventTargetPort): Endpoint {
  return {
    post: (message, transfer) => port.postMessage(message, transfer ?? []),
    listen(handler) {
      const listener = (event: MessageEvent) => handler(event.data);
      port.addEventListener("message", listener);
      port.start?.();
      return () => port.removeEventListener("message", listener);
    },
  };
}
