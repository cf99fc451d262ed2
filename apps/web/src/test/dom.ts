/**
 * The element with this id, checked to be a `kind` (HTMLInputElement, HTMLButtonElement…): a
 * missing or different element fails the test here, naming the id.
 */
export function elementById<T extends HTMLElement>(id: string, kind: abstract new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof kind)) {
    throw new Error(`#${id}: expected ${kind.name}, found ${element?.tagName ?? 'nothing'}`);
  }
  return element;
}
