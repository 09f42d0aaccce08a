import type { Page } from "@playwright/test";
import { expect } from "./fixtures.js";

/**
 * Adds an OpenAI-compatible server on loopback through the chat's Keys dialog, as a person would: provider
 * "local", model "coder-test", with a key when one is given (a keyless local server otherwise), and waits
 * until the chat has picked its model.
 */
export async function addLocalProvider(page: Page, baseURL: string, key?: string): Promise<void> {
  const chat = page.getByTestId("chat-pane");
  await chat.getByTestId("open-keys").click();
  const dialog = page.getByTestId("provider-dialog");
  await dialog.getByTestId("provider-select").selectOption("+compatible");
  await dialog.getByTestId("provider-id").fill("local");
  await dialog.getByTestId("provider-base-url").fill(baseURL);
  await dialog.getByTestId("provider-models").fill("coder-test");
  if (key !== undefined) await dialog.getByTestId("provider-key").fill(key);
  await dialog.getByTestId("provider-save").click();
  await expect(dialog).toBeHidden();
  await expect(chat.getByTestId("model-picker")).toHaveValue("local/coder-test");
}
