/**
 * Brings a card or a prompt into view and marks it for a moment, so the eye finds it among many:
 * the link between a call's card and its permission prompt, both ways.
 */
export function jumpTo(selector: string): boolean {
  const target = document.querySelector<HTMLElement>(selector);
  if (!target) return false;
  target.scrollIntoView({ block: "center", behavior: "smooth" });
  if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
  target.classList.remove("jumped-to");
  // Restarts the highlight's animation when jumped to twice in a row.
  void target.offsetWidth;
  target.classList.add("jumped-to");
  setTimeout(() => target.classList.remove("jumped-to"), 1600);
  return true;
}

export const cardSelector = (callID: string) => `[data-testid="call-card"][data-call-id="${CSS.escape(callID)}"]`;
export const promptSelector = (callID: string) => `[data-testid="permission-prompt"][data-call-id="${CSS.escape(callID)}"]`;
