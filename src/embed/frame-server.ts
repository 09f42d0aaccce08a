/**
 * The frame's end of the protocol (protocol.ts): answers the host's handshake when the host's origin
 * is allowed, then serves requests over the transferred port. It starts before the workbench has
 * loaded, so the host's first handshake is answered at once; requests wait for the backend.
 */
import { isHandshake, PROTOCOL_VERSION, TAG, type EventMessage, type EventName, type MethodName, type Request } from "./protocol.js";
import { errorMessage } from "../base/error-message.js";

export interface EmbedBackend {
  handle(method: MethodName, params: unknown): Promise<unknown>;
}

export interface FrameServer {
  /** Sends an event to every host port connected. */
  emit(event: EventName, data: unknown): void;
  /** The origin of the host that connected first (the only one ever served), once there is one. */
  host(): string | undefined;
  stop(): void;
}

const METHODS = new Set<MethodName>([
  "start",
  "applyFsDiff",
  "getFsSnapshot",
  "runTool",
  "run",
  "openFile",
  "setTheme",
  "setView",
  "shareUrl",
  "measure",
  "revert",
  "reset",
]);

const messageOf = (error: unknown) => errorMessage(error);

/** Whether `origin` may drive this frame: any when the list is empty, else one of the list exactly. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.length === 0 || allowed.includes(origin);
}

export function startFrameServer(win: Window, allowed: readonly string[], backend: Promise<EmbedBackend>): FrameServer {
  const ports: MessagePort[] = [];
  const answered = new Set<string>();
  let hostOrigin: string | undefined;

  const serve = (port: MessagePort) => {
    port.onmessage = async (event: MessageEvent) => {
      const request = event.data as Partial<Request> | null;
      if (typeof request?.id !== "number") return;
      const id = request.id;
      if (!request.method || !METHODS.has(request.method)) {
        port.postMessage({
          id,
          ok: false,
          error: `Unknown method ${JSON.stringify(request.method)}: this workbench speaks protocol version ${PROTOCOL_VERSION}.`,
        });
        return;
      }
      try {
        const value = await (await backend).handle(request.method, request.params);
        port.postMessage({ id, ok: true, value });
      } catch (error) {
        port.postMessage({ id, ok: false, error: messageOf(error) });
      }
    };
    port.start();
  };

  const onMessage = (event: MessageEvent) => {
    if (!isHandshake(event.data) || event.data[TAG] !== "init") return;
    // Only the page holding the frame may drive it: not a popup, an opener or a sibling frame.
    if (event.source !== win.parent || win.parent === win) return;
    const id = event.data.id;
    const source = event.source as Window;
    const answer = (kind: "ready" | "refused", extra: Record<string, unknown>, transfer: Transferable[] = []) =>
      source.postMessage({ [TAG]: kind, id, ...extra }, { targetOrigin: event.origin, transfer });
    const refuse = (error: string) => answer("refused", { error });
    if (hostOrigin !== undefined && event.origin !== hostOrigin)
      return refuse(`This workbench frame is already driven by another page; ${event.origin} may not drive it too.`);
    if (!originAllowed(event.origin, allowed)) {
      return refuse(
        `The workbench frame does not accept ${event.origin}: it accepts ${allowed.join(", ")}. Add the page's origin to the embed's \`origins\` option.`,
      );
    }
    // The host retries until it hears back: one port per handshake id, however many tries arrive.
    if (answered.has(id)) return;
    answered.add(id);
    hostOrigin = event.origin;
    const channel = new MessageChannel();
    serve(channel.port1);
    ports.push(channel.port1);
    answer("ready", { version: PROTOCOL_VERSION }, [channel.port2]);
  };
  win.addEventListener("message", onMessage);

  return {
    emit(event, data) {
      const message: EventMessage = { event, data };
      for (const port of ports) port.postMessage(message);
    },
    host: () => hostOrigin,
    stop() {
      win.removeEventListener("message", onMessage);
      for (const port of ports) port.close();
    },
  };
}
