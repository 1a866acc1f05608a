/// <reference lib="dom" />
/**
 * Keyboard use of the page's clickable lists (an issue, a run-log line, a search result, a file tab):
 * each is reached with Tab and taken with Enter or Space, as a button is — a keyboard-only user could
 * see an issue but not get to its node.
 *
 * @module
 */

/** Makes `element` act on a click, and on Enter or Space when focused (it joins the Tab order). */
export function clickable(element: HTMLElement, action: () => void): void {
  element.tabIndex = 0;
  element.setAttribute("role", "button");
  element.onclick = action;
  element.onkeydown = (event) => {
    if (event.target !== element || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    action();
  };
}
