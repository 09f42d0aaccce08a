/**
 * A streaming answer that stops arriving is ended with an error instead of hanging the session: if no
 * chunk comes for `ms` (opencode.json `options.chunkTimeout`, OpenCode's default 120 s), the body errors
 * with StreamIdleTimeoutError and the connection is cancelled.
 */
export const DEFAULT_CHUNK_TIMEOUT_MS = 120_000;

class StreamIdleTimeoutError extends Error {
  override readonly name = "StreamIdleTimeoutError";
  constructor(readonly ms: number) {
    super(`the provider sent nothing for ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`} in the middle of its answer`);
  }
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
