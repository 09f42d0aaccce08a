/**
 * The event bus the tool subsystem publishes on: call lifecycle, file edits, permission requests and
 * replies. Subscribers (the session store, the UI, the CLI) never reach into the publishers.
 */

export interface BusEvents {
  "call.updated": { sessionID: string; callID: string };
  "file.edited": { file: string };
  "permission.asked": import("./permission/types.js").PermissionRequest;
  "permission.replied": { sessionID: string; requestID: string; reply: "once" | "always" | "reject"; message?: string };
}

export type BusEventName = keyof BusEvents;

export class Bus {
  private readonly listeners = new Map<BusEventName, Set<(payload: never) => void>>();

  publish<K extends BusEventName>(name: K, payload: BusEvents[K]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        (listener as (payload: BusEvents[K]) => void)(payload);
      } catch (error) {
        // One broken subscriber must not stop the others, nor the publisher.
        console.error(`a ${name} subscriber failed:`, error);
      }
    }
  }

  subscribe<K extends BusEventName>(name: K, listener: (payload: BusEvents[K]) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }
}
