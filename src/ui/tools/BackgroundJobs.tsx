import { createSignal, For, onCleanup, Show } from "solid-js";
import type { PageTools } from "../../page/page-tools.js";
import type { JobInfo } from "../../tools/jobs/background-jobs.js";

/** How much of a job's output the list shows live: its last lines; the whole of it is in the saved file. */
const SHOWN_CHARS = 2000;
/** Output arrives in bursts; the list reads it back at most this often. */
const REFRESH_MS = 250;

/**
 * The session's background shell jobs (bash or shell with `background: true`): each with its command, state,
 * the end of its output as it arrives, and a Stop while it runs. Nothing is shown before the first job.
 */
export function BackgroundJobs(props: { page: PageTools }) {
  const [jobs, setJobs] = createSignal<JobInfo[]>(props.page.jobs());
  const [outputs, setOutputs] = createSignal<Record<string, string>>({});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    timer = undefined;
    const list = props.page.jobs();
    setJobs(list);
    for (const job of list) {
      void props.page.jobOutput(job.id).then(
        (text) => setOutputs((all) => ({ ...all, [job.id]: text.slice(-SHOWN_CHARS) })),
        () => {},
      );
    }
  };
  onCleanup(
    props.page.onJobsChange(() => {
      timer ??= setTimeout(refresh, REFRESH_MS);
    }),
  );
  onCleanup(() => clearTimeout(timer));
  return (
    <Show when={jobs().length > 0}>
      <div class="background-jobs" role="region" aria-label="Background jobs" data-testid="background-jobs">
        <p>Background jobs</p>
        <ul>
          <For each={jobs()}>
            {(job) => (
              <li data-testid="background-job" data-state={job.status}>
                <code class="job-command">{job.command}</code>{" "}
                <span class={`job-state job-${job.status.replace(" ", "-")}`}>
                  {job.status === "running" ? "running…" : job.exitCode === null ? job.status : `${job.status} (exit ${job.exitCode})`}
                </span>
                <Show when={job.status === "running"}>
                  <button
                    type="button"
                    class="button"
                    aria-label={`Stop ${job.command}`}
                    onClick={() => void props.page.stopJob(job.id)}
                    data-testid="stop-job"
                  >
                    Stop
                  </button>
                </Show>
                <Show when={outputs()[job.id]}>
                  <pre class="job-output" data-testid="job-output" title={`All of it: ${job.outputPath}`}>
                    {outputs()[job.id]}
                  </pre>
                </Show>
              </li>
            )}
          </For>
        </ul>
      </div>
    </Show>
  );
}
