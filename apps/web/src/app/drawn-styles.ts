/**
 * The attribute of a drawn page's `<style>` that names the built style sheet it was taken from
 * (server-render.tsx, inlineStylesheet).
 */
export const STYLESHEET_ATTRIBUTE = 'data-stylesheet';

/**
 * Links the built style sheets a page the server drew carries inline, once it is painted: its
 * `<style>` holds the first screens' rules and its language's font faces only, the sheet has the
 * faces of every language (a change of language on the page needs them). Each sheet is linked
 * just before its `<style>`, where the built index.html links it; the `<style>` stays after it, so
 * every rule of both is the same and none changes the page. Once each: the attribute goes.
 */
export function linkDrawnStylesheets(doc: Document): void {
  for (const style of doc.querySelectorAll(`style[${STYLESHEET_ATTRIBUTE}]`)) {
    const href = style.getAttribute(STYLESHEET_ATTRIBUTE);
    style.removeAttribute(STYLESHEET_ATTRIBUTE);
    const linked = [...doc.querySelectorAll('link[rel="stylesheet"]')].some(
      (link) => link.getAttribute('href') === href,
    );
    if (!href || linked) continue;
    const link = doc.createElement('link');
    link.rel = 'stylesheet';
    // As the built index.html links it.
    link.crossOrigin = '';
    link.href = href;
    style.before(link);
  }
}
