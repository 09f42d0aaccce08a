/**
 * A streaming answer that stops arriving is ended with an error instead of hanging the session: if no
 * chunk comes for `ms` (opencode.json `options.chunkTimeout`, OpenCode's default 120 s), the body errors
 * with StreamIdleTimeoutError and the connection is cancelled.
 */
export const DEFAULT_CHUNK_TIMEOUT_MS = 120_000;

class StreamIdleTimeoutError extends Error {
  override readonly name = "StreamIdleTimeoutError";
  constructor(
    readonly ms: number,
    where: "before answering" | "in the middle of its answer" = "in the middle of its answer",
  ) {
    super(`the provider sent nothing for ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`} ${where}`);
  }
}

/**
 * A server that accepts the connection and never answers is as silent as one that stops mid-answer, so
 * the same `ms` bounds the wait for the response's headers: the request is aborted with the timeout's
 * error (the caller's own abort still wins).
 */
export function answerWithin(ms: number, send: (signal: AbortSignal) => Promise<Response>, outer?: AbortSignal | null): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new StreamIdleTimeoutError(ms, "before answering")), ms);
  const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
  return send(signal).finally(() => clearTimeout(timer));
}

export function withIdleTimeout(response: Response, ms: number): Response {
  const source = response.body;
  if (!source) return response;
  const reader = source.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      clearTimeout(timer);
      timer = setTimeout(() => {
        controller.error(new StreamIdleTimeoutError(ms));
        void reader.cancel().catch(() => {});
      }, ms);
      return reader.read().then(
        ({ done, value }) => {
          clearTimeout(timer);
          if (done) controller.close();
          else controller.enqueue(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          controller.error(error);
        },
      );
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
