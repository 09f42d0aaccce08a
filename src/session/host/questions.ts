/**
 * Questions the model asks the person (the question tool, plan_enter, plan_exit): each waits here until
 * the page (or the CLI on a terminal) answers or dismisses it. Only one place holds them, so the page can
 * show each where its call waits and a stopped call takes its questions away.
 */
import type { Bus } from "../../tools/bus.js";
import { QuestionDismissedError, type QuestionItem } from "../../tools/ports/session-services.js";
import { ascendingId } from "../record/ids.js";

export interface QuestionRequest {
  id: string;
  sessionID: string;
  callID: string;
  questions: QuestionItem[];
}

interface Waiting {
  request: QuestionRequest;
  resolve(answers: string[][]): void;
  reject(error: Error): void;
}

export class Questions {
  private readonly waiting = new Map<string, Waiting>();
  private readonly listeners = new Set<(request: QuestionRequest) => void>();

  constructor(private readonly bus: Bus) {}

  /** Waits for the answers; aborting the signal withdraws the questions. */
  ask(input: Omit<QuestionRequest, "id">, signal: AbortSignal): Promise<string[][]> {
    const request: QuestionRequest = { ...input, id: ascendingId("que") };
    return new Promise<string[][]>((resolve, reject) => {
      if (signal.aborted) return reject(new Error("The call was aborted before the question was asked."));
      const done = () => {
        signal.removeEventListener("abort", stop);
        this.waiting.delete(request.id);
        this.bus.publish("call.updated", { sessionID: request.sessionID, callID: request.callID });
      };
      const stop = () => {
        done();
        reject(new Error("The call was aborted while waiting for an answer."));
      };
      signal.addEventListener("abort", stop, { once: true });
      this.waiting.set(request.id, {
        request,
        resolve: (answers) => (done(), resolve(answers)),
        reject: (error) => (done(), reject(error)),
      });
      this.bus.publish("call.updated", { sessionID: request.sessionID, callID: request.callID });
      for (const listener of [...this.listeners]) listener(request);
    });
  }

  /** Called for every question asked (the CLI answers them on its terminal). */
  onAsked(listener: (request: QuestionRequest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  pending(): QuestionRequest[] {
    return [...this.waiting.values()].map((entry) => entry.request);
  }

  forCall(callID: string): QuestionRequest | undefined {
    return this.pending().find((request) => request.callID === callID);
  }

  /**
   * One answer per question, each a list of chosen labels or typed text. A wrong count is refused with
   * what to send instead, and the question keeps waiting.
   */
  reply(id: string, answers: string[][]): void {
    const entry = this.waiting.get(id);
    if (!entry) throw new Error(`no question "${id}" is waiting (it was answered, dismissed or its call stopped)`);
    if (answers.length !== entry.request.questions.length) {
      throw new Error(
        `${entry.request.questions.length} question(s) were asked but ${answers.length} answer(s) given: send one list per question`,
      );
    }
    entry.resolve(answers.map((answer) => [...answer]));
  }

  dismiss(id: string): void {
    this.waiting.get(id)?.reject(new QuestionDismissedError());
  }
}
